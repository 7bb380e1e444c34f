#!/usr/bin/env bash
# The benchmark of issue 14 (make bench-snapshot): `rdmadoctor diagnose` of sosreport-shaped
# archives, each timed side by side with the decompressor alone on the same file (`cat`,
# `gzip -dc`, `xz -dc`, output to /dev/null), in one hyperfine run; peak RSS from
# /usr/bin/time. The archives (scripts/sosbench: the captures of one corpus case where sos puts
# them, plus N unrelated copies of this machine's /usr/share text files) are written once into
# DIR and kept there for the next run: compressing the largest with xz -6 takes minutes.
#
# Usage: scripts/bench-snapshot.sh BIN [DIR]   (DIR: /tmp/rdmadoctor-bench-snapshot)
# Environment: SIZES (default "2000 8000 32000 128000"), FORMATS ("tar tar.gz tar.xz"), RUNS (9),
# WARMUP (2), BASE (another build, e.g. main's before a change: timed in the same hyperfine run,
# beside the other two, and printed as a second row).
# Prints a Markdown table: medians, the ratio of the medians, the CPU time (user + system, the
# decompressor's child process included) of each, the time per unrelated member ((median -
# median of the archive without unrelated members) / N), the peak RSS and the load average
# before each pair (the VM is shared: a ratio means little without it).
set -euo pipefail
bin=$1
dir=${2:-/tmp/rdmadoctor-bench-snapshot}
sizes=${SIZES:-2000 8000 32000 128000}
formats=${FORMATS:-tar tar.gz tar.xz}
runs=${RUNS:-9}
warmup=${WARMUP:-2}
base=${BASE:-}
command -v hyperfine >/dev/null || { echo "hyperfine is needed (Debian: apt-get install hyperfine)" >&2; exit 2; }
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
		hyperfine -N --style none --warmup "$warmup" --runs "$runs" --export-json "$f.bench.json" "${cmds[@]}" >/dev/null
		/usr/bin/time -f %M -o "$f.rss" "$bin" diagnose --snapshot "$f" --format json --fail-on none >/dev/null
		rm -f "$f.base.rss"
		[ -z "$base" ] || /usr/bin/time -f %M -o "$f.base.rss" "$base" diagnose --snapshot "$f" --format json --fail-on none >/dev/null
	done
done

python3 - "$dir" "$sizes" "$formats" <<'EOF'
import json, os, sys
d, sizes, formats = sys.argv[1], [int(n) for n in sys.argv[2].split()], sys.argv[3].split()
def load(n, fmt, which=0):
    # which: 0 the build under test, 2 BASE (its row only when it was timed)
    f = os.path.join(d, f"sos-{n}.{fmt}")
    res = json.load(open(f + ".bench.json"))["results"]
    if which >= len(res):
        return None
    cpu = [r["user"] + r["system"] for r in res]
    load = open(f + ".load").read().strip() if os.path.exists(f + ".load") else "?"
    rss = f + (".base.rss" if which else ".rss")
    return res[which]["median"], res[1]["median"], int(open(rss).read().split()[-1]) / 1024, os.path.getsize(f), [cpu[which], cpu[1]], load
print("| unrelated members | format | size | diagnose | reference | ratio | CPU diagnose / reference (mean user+sys) | per unrelated member | peak RSS | load average |")
print("|---|---|---|---|---|---|---|---|---|---|")
for which, label in [(0, ""), (2, " (BASE)")]:
    if load(0, formats[0], which) is None:
        continue
    for fmt in formats:
        base = load(0, fmt, which)[0]
        per = []
        for n in [0] + sizes:
            diag, ref, rss, size, cpu, la = load(n, fmt, which)
            pm = "" if n == 0 else f"{(diag - base) / n * 1e6:.1f} µs"
            if n:
                per.append((diag - base) / n)
            ref_name = {"tar": "cat", "tar.gz": "gzip -dc", "tar.xz": "xz -dc"}[fmt]
            print(f"| {n:,} | .{fmt}{label} | {size / 1e6:.1f} MB | {diag:.3f} s | {ref:.3f} s ({ref_name}) | {diag / ref:.2f}x | {cpu[0]:.3f} / {cpu[1]:.3f} s | {pm} | {rss:.1f} MiB | {la} |")
        if per and min(per) > 0:
            print(f"| | .{fmt}{label} | | | | | spread {max(per) / min(per):.2f}x | |")
EOF
