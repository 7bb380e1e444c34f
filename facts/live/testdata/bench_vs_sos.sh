#!/bin/sh
# Compare the wall time of `rdmadoctor gather` with `sos report` for the same plugins on this
# machine: median of 5 runs each. Goal: rdmadoctor <= 0.2x sos. Needs root and sos installed.
# Usage: facts/live/testdata/bench_vs_sos.sh [runs]
set -eu
runs=${1:-5}
top=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$top" && go build -o "$work/rdmadoctor" ./cmd/rdmadoctor)

now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

: > "$work/rd.times"; : > "$work/sos.times"
i=0
while [ "$i" -lt "$runs" ]; do
	t0=$(now)
	"$work/rdmadoctor" gather -q -o "$work/rd$i.tar.gz" 2>/dev/null || true # exit 3 without RDMA hardware
	t1=$(now)
	echo "$t1 - $t0" | bc >> "$work/rd.times"
	t0=$(now)
	sos report --batch --quiet -o infiniband,networking,pci,kernel,processor --tmp-dir "$work" >/dev/null 2>&1
	t1=$(now)
	echo "$t1 - $t0" | bc >> "$work/sos.times"
	i=$((i + 1))
done
rd=$(median < "$work/rd.times")
sos=$(median < "$work/sos.times")
echo "rdmadoctor gather: median $rd s over $runs runs ($(tr '\n' ' ' < "$work/rd.times"))"
echo "sos report:        median $sos s over $runs runs ($(tr '\n' ' ' < "$work/sos.times"))"
echo "ratio: $(echo "scale=3; $rd / $sos" | bc) (goal <= 0.2)"
