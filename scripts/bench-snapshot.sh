#!/usr/bin/env bash
# The benchmark of issue 14 (make bench-snapshot): `rdmadoctor diagnose` of sosreport-shaped
# archives, each timed side by side with the decompressor alone on the same file (`cat`,
# `gzip -dc`, `xz -dc`, output to /dev/null), interleaved in one run (scripts/interleave.py:
# A B A B ..., so that the ratio, taken pair by pair, holds while the shared VM's speed
# drifts); peak RSS from each run's rusage. The archives (scripts/sosbench: the captures of one
# corpus case where sos puts them, plus N unrelated copies of this machine's /usr/share text
# files) are written once into DIR and kept there for the next run: compressing the largest
# with xz -6 takes minutes.
#
# Usage: scripts/bench-snapshot.sh BIN [DIR]   (DIR: /tmp/rdmadoctor-bench-snapshot)
# Environment: SIZES (default "2000 8000 32000 128000"), FORMATS ("tar tar.gz tar.xz"), RUNS (9),
# WARMUP (2), BASE (another build, e.g. main's before a change: timed in the same run, in turn
# with the other two, and printed as a second row).
# Prints a Markdown table: medians, the median of the ratios pair by pair, the median CPU time
# (user + system, the decompressor's child process included) of each, the time per unrelated
# member ((median - median of the archive without unrelated members) / N, and from the size
# before: (median - median at the size before) / the members between, each beside the
# reference's), the peak RSS and the load average before each pair (the VM is shared: a ratio
# means little without it).
set -euo pipefail
bin=$1
dir=${2:-/tmp/rdmadoctor-bench-snapshot}
sizes=${SIZES:-2000 8000 32000 128000}
formats=${FORMATS:-tar tar.gz tar.xz}
runs=${RUNS:-9}
warmup=${WARMUP:-2}
base=${BASE:-}
command -v python3 >/dev/null || { echo "python3 is needed" >&2; exit 2; }
here=$(dirname "$0")
mkdir -p "$dir"

missing=""
for n in 0 $sizes; do
	[ -f "$dir/sos-$n.tar" ] || missing="$missing,$n"
done
[ -z "$missing" ] || go run ./scripts/sosbench -out "$dir" -members "${missing#,}"
for n in 0 $sizes; do
	f=$dir/sos-$n.tar
	# sos compresses with one thread (python's lzma, preset 6); so does the benchmark.
	[ -f "$f.gz" ] || { gzip -6 -c "$f" >"$f.gz.tmp" && mv "$f.gz.tmp" "$f.gz"; }
	[ -f "$f.xz" ] || { xz -6 -T1 -c "$f" >"$f.xz.tmp" && mv "$f.xz.tmp" "$f.xz"; }
done

for n in 0 $sizes; do
	for fmt in $formats; do
		f=$dir/sos-$n.$fmt
		case $fmt in
		tar) ref="cat $f" ;;
		tar.gz) ref="gzip -dc $f" ;;
		tar.xz) ref="xz -dc $f" ;;
		esac
		cut -d' ' -f1-3 /proc/loadavg >"$f.load"
		cmds=("$bin diagnose --snapshot $f --format json --fail-on none" "$ref")
		[ -z "$base" ] || cmds+=("$base diagnose --snapshot $f --format json --fail-on none")
		python3 "$here/interleave.py" --warmup "$warmup" --runs "$runs" --json "$f.bench.json" -- "${cmds[@]}"
	done
done

python3 - "$dir" "$sizes" "$formats" <<'EOF'
import json, os, statistics, sys
d, sizes, formats = sys.argv[1], [int(n) for n in sys.argv[2].split()], sys.argv[3].split()
def load(n, fmt, which=0):
    """diagnose's (or BASE's) median wall, the reference's, diagnose's median peak RSS in MiB,
    the archive's size, the median CPU of both, the load average before, the median ratio."""
    f = os.path.join(d, f"sos-{n}.{fmt}")
    res = json.load(open(f + ".bench.json"))["results"]
    if which >= len(res):
        return None
    me, ref = res[which], res[1]
    ratio = statistics.median(a / b for a, b in zip(me["wall"], ref["wall"]))
    la = open(f + ".load").read().strip() if os.path.exists(f + ".load") else "?"
    return me["median"], ref["median"], me["rss_kib_median"] / 1024, os.path.getsize(f), [me["cpu_median"], ref["cpu_median"]], la, ratio
print("| unrelated members | format | size | diagnose | reference | ratio (pair by pair) | CPU diagnose / reference (median user+sys) | per unrelated member: from 0 / from the size before (the reference's) | peak RSS | load average |")
print("|---|---|---|---|---|---|---|---|---|---|")
for which, label in [(0, ""), (2, " (BASE)")]:
    if load(0, formats[0], which) is None:
        continue
    for fmt in formats:
        base, base_ref = load(0, fmt, which)[:2]
        per, marginal = [], []
        prev = (0, base, base_ref)
        for n in [0] + sizes:
            diag, ref, rss, size, cpu, la, ratio = load(n, fmt, which)
            pm = ""
            if n:
                # From 0: what the issue's goal reads, (T(N) - T(0)) / N. Below a few thousand
                # members it runs low: the fixed cost that T(0) shows whole (start-up, the
                # compile of the rules) runs beside the decoder at N. From the size before:
                # (T(N) - T(N')) / (N - N'), the cost a member adds, beside the decoder's own.
                m, mref = (diag - prev[1]) / (n - prev[0]), (ref - prev[2]) / (n - prev[0])
                per.append((diag - base) / n)
                marginal.append(m)
                pm = f"{(diag - base) / n * 1e6:.1f} / {m * 1e6:.1f} µs ({(ref - base_ref) / n * 1e6:.1f} / {mref * 1e6:.1f})"
                prev = (n, diag, ref)
            ref_name = {"tar": "cat", "tar.gz": "gzip -dc", "tar.xz": "xz -dc"}[fmt]
            print(f"| {n:,} | .{fmt}{label} | {size / 1e6:.1f} MB | {diag:.3f} s | {ref:.3f} s ({ref_name}) | {ratio:.2f}x | {cpu[0]:.3f} / {cpu[1]:.3f} s | {pm} | {rss:.1f} MiB | {la} |")
        if per and min(per) > 0 and min(marginal) > 0:
            print(f"| | .{fmt}{label} | | | | | | spread {max(per) / min(per):.2f}x / {max(marginal) / min(marginal):.2f}x | |")
EOF
