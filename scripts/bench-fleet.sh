#!/usr/bin/env bash
# The benchmark of issue 12 (make bench-fleet): ONE `rdmadoctor fleet` call on a generated fleet
# of NODES snapshots, timed side by side (one hyperfine run, the two commands in turn) with
# `rdmadoctor diagnose` run once per snapshot on SAMPLE of them; then the peak RSS of the NODES
# fleet and of a SMALL-node fleet (/usr/bin/time -v). The fleet is real captures: corpus cases
# (fixtures/corpus, CASES below) copied, as hard links, under host names node00001, node00002,
# ..., the cases in turn, each copy with a `hostname` file naming its node as `hostname` prints
# it. It is written once into DIR and kept for the next run.
#
# Usage: scripts/bench-fleet.sh BIN [DIR]   (DIR: /tmp/rdmadoctor-bench-fleet)
# Environment: NODES (10000), SMALL (100), SAMPLE (200), RUNS (3), WARMUP (1), CASES (corpus
# case folders).
# Prints a Markdown table: medians, the time per snapshot of each, their ratio, peak RSS.
set -euo pipefail
bin=$1
dir=${2:-/tmp/rdmadoctor-bench-fleet}
nodes=${NODES:-10000}
small=${SMALL:-100}
sample=${SAMPLE:-200}
runs=${RUNS:-3}
warmup=${WARMUP:-1}
corpus=fixtures/corpus
# Node-sized snapshots of common shapes: a sysfs tree with counters (005), ibstat with mlxlink
# (017), ibstat of two nodes (018), ibv_devinfo/lspci/ethtool captures (010, 021, 026, 038, 056,
# 101, 112, 126). Not 301: one ibdiagnet2 run of a whole fabric is no node's snapshot.
cases=${CASES:-005 010 017 018 021 026 038 056 101 112 126}
command -v hyperfine >/dev/null || { echo "hyperfine is needed (Debian: apt-get install hyperfine)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is needed (Debian: apt-get install time)" >&2; exit 2; }

generate() { # generate N FOLDER
	python3 - "$corpus" "$1" "$2" $cases <<'PY'
import glob, os, sys
corpus, n, out, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
src = [sorted(glob.glob(os.path.join(corpus, c + "-*")))[0] for c in cases]
tmp = out + ".tmp"
os.makedirs(tmp)
for i in range(n):
    host = f"node{i + 1:05d}"
    case = src[i % len(src)]
    dst = os.path.join(tmp, host)
    for root, dirs, files in os.walk(case):
        rel = os.path.relpath(root, case)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for f in files:
            if f in ("CASE.md", "expect.json"):
                continue
            os.link(os.path.join(root, f), os.path.join(dst, rel, f))
    with open(os.path.join(dst, "hostname"), "w") as f:
        f.write(host + "\n")
os.rename(tmp, out)
PY
}
mkdir -p "$dir"
for n in "$nodes" "$small"; do
	[ -d "$dir/fleet-$n" ] || generate "$n" "$dir/fleet-$n"
done
all=("$dir/fleet-$nodes"/node*)
printf '%s\n' "${all[@]:0:$sample}" >"$dir/sample.list"

hyperfine -N -i --style none --warmup "$warmup" --runs "$runs" --export-json "$dir/bench.json" \
	"$bin fleet --format json --fail-on none $dir/fleet-$nodes" \
	"xargs -a $dir/sample.list -n 1 $bin diagnose --format json --fail-on none --snapshot" >/dev/null
for n in "$nodes" "$small"; do
	/usr/bin/time -v -o "$dir/time-$n.txt" "$bin" fleet --format json --fail-on none "$dir/fleet-$n" >/dev/null
done

python3 - "$dir" "$nodes" "$small" "$sample" <<'PY'
import json, os, re, sys
d, nodes, small, sample = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
res = json.load(open(os.path.join(d, "bench.json")))["results"]
fleet, diag = res[0]["median"], res[1]["median"]
def rss(n):
    t = open(os.path.join(d, f"time-{n}.txt")).read()
    return int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024
pf, pd = fleet / nodes, diag / sample
print("| command | snapshots | median | per snapshot | min..max | peak RSS |")
print("|---|---|---|---|---|---|")
print(f"| fleet | {nodes:,} | {fleet:.1f} s | {pf * 1e3:.2f} ms | {res[0]['min']:.1f}..{res[0]['max']:.1f} s | {rss(nodes):.0f} MiB |")
print(f"| fleet | {small:,} | | | | {rss(small):.0f} MiB |")
print(f"| diagnose, once per snapshot | {sample:,} | {diag:.1f} s | {pd * 1e3:.1f} ms | {res[1]['min']:.1f}..{res[1]['max']:.1f} s | |")
print(f"\nper snapshot, fleet / diagnose: {pf / pd:.3f} ({pd / pf:.0f}x faster); peak RSS {nodes:,} / {small:,} nodes: {rss(nodes) / rss(small):.2f}x")
PY
