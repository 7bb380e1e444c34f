#!/usr/bin/env python3
"""Compare two folders written by scripts/report-snapshots.sh (old build, new build).

usage: scripts/compare-reports.py OLD_DIR NEW_DIR [--ignore-skip-reasons]
Prints each case whose JSON report differs and a last line with the counts; with
--ignore-skip-reasons the skipped[].reason texts are left out of the comparison.
Exit 1 when a report differs."""
import glob, json, os, sys

old, new = sys.argv[1], sys.argv[2]
ignore = "--ignore-skip-reasons" in sys.argv
same = differ = 0
for path in sorted(glob.glob(os.path.join(old, "*.json"))):
    name = os.path.basename(path)
    a, b = open(path).read(), open(os.path.join(new, name)).read()
    if a != b and ignore:
        ja, jb = json.loads(a), json.loads(b)
        for j in (ja, jb):
            for s in j.get("skipped", []):
                s.pop("reason", None)
        a, b = ja, jb
    if a == b:
        same += 1
    else:
        differ += 1
        print("differs:", name)
print(f"{same} reports identical{' apart from skipped[].reason' if ignore else ''}, {differ} differ")
sys.exit(1 if differ else 0)
