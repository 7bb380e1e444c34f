#!/bin/sh
# Wall time and peak RSS of `rdmadoctor diagnose` on the huge inputs of issue 10 (goal: each
# <= 512 MB and < 30 s): a .tar.gz of 16 x 60 MB kernel logs, and a 60 MB ibstat.
# Usage: scripts/bench_hostile.sh BIN [DIR]   (DIR: where the inputs are written, bin/hostile)
set -eu
bin=$1
dir=${2:-bin/hostile}
if [ ! -f "$dir/logs.tar.gz" ] || [ ! -f "$dir/ibstat" ]; then
	go run ./scripts/hostile -out "$dir"
fi
mkdir -p "$dir/ibstat-only"
cp "$dir/ibstat" "$dir/ibstat-only/ibstat"
for input in "$dir/logs.tar.gz" "$dir/ibstat-only"; do
	/usr/bin/time -f "$input: %e s wall, %U s user, %M KB peak RSS" \
		"$bin" diagnose --snapshot "$input" --format json >/dev/null 2>"$dir/stderr" || true
	tail -n 1 "$dir/stderr"
done
