#!/usr/bin/env bash
# Writes the JSON report of every corpus case and scenario into OUT, one file per case, for
# comparing two builds: `scripts/report-snapshots.sh BIN OUT [CASES_DIR...]`, then `diff -r`.
# Each case is diagnosed as engine/scenario_test.go does (CASE.md, expect.json and profile.yaml
# are not part of the snapshot; profile.yaml is given with --profile). Default cases:
# fixtures/corpus and fixtures/scenarios. A file in a CASES_DIR (a sosreport .tar.xz) is
# diagnosed as it is. scripts/compare-reports.py OLD NEW compares two outputs.
set -euo pipefail
bin=$1 out=$2
shift 2
[ $# -gt 0 ] || set -- fixtures/corpus fixtures/scenarios
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for dir in "$@"; do
	for c in "$dir"/*; do
		name=$(basename "$c")
		if [ -f "$c" ]; then
			case "$name" in *.md | *.md5 | *.sha256 | *.txt) continue ;; esac
			"$bin" diagnose --snapshot "$c" --format json --fail-on none 2>"$out/$name.stderr" | sed "s#$dir/##g" >"$out/$name.json" || true
			sed -i "s#$dir/##g" "$out/$name.stderr"
			continue
		fi
		snap=$tmp/$name
		rm -rf "$snap"
		cp -r "$c" "$snap"
		rm -f "$snap/CASE.md" "$snap/expect.json" "$snap/profile.yaml"
		args=(diagnose --snapshot "$snap" --format json --fail-on none)
		[ -f "$c/profile.yaml" ] && args+=(--profile "$c/profile.yaml")
		"$bin" "${args[@]}" 2>"$out/$name.stderr" | sed "s#$tmp/##g" >"$out/$name.json" || true
		sed -i "s#$tmp/##g" "$out/$name.stderr"
	done
done
