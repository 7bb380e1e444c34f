#!/bin/sh
# build-npd.sh VERSION OUT: builds node-problem-detector VERSION (k8s.io/node-problem-detector,
# from the Go module proxy) into OUT, for packaging/npd_test.go. The proxy serves exact
# versions of this module but no version list, and the checksum database does not know it, so
# the build goes through a throw-away module that requires it with GONOSUMDB for that module
# alone (its dependencies are still checked). CGO_ENABLED=0 and no build tags, as NPD's Makefile
# builds it without journald: the custom plugin monitor and the Prometheus exporter need neither.
# .ci/run runs this once before the tests; the test runs it when OUT is missing.
set -eu
version=$1
out=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
printf 'module npdbuild\n\ngo 1.23\n\nrequire k8s.io/node-problem-detector %s\n' "$version" > go.mod
export GONOSUMDB=k8s.io/node-problem-detector GOFLAGS=-mod=mod CGO_ENABLED=0
mkdir -p "$(dirname "$out")"
go build -o "$out.tmp" k8s.io/node-problem-detector/cmd/nodeproblemdetector
mv "$out.tmp" "$out"
