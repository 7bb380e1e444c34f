# rdmadoctor developer targets. Everything runs through the go command; OPA's CLI comes from the
# `tool` directive in go.mod (the same version as the library the engine links).

GO       ?= go
FUZZTIME ?= 20s
# The fuzzer minimises each input that finds new coverage, by default for up to 60 s, without
# counting those runs: over kilobyte tar inputs that was the whole FUZZTIME (FuzzOpenArchive:
# 14 execs in 31 s). A short minimisation leaves the time to fuzzing.
FUZZMINIMIZE ?= 2s
BENCHTIME ?= 1s
BIN      ?= bin/rdmadoctor
# Build tags of the binary. urfave_cli_no_docs drops urfave/cli's ToMarkdown/ToMan (unused here)
# and with them go-md2man and blackfriday, whose package init cost ~1.5 ms at every start. The
# code builds and tests the same without it (`go run`, `go test`).
TAGS     ?= urfave_cli_no_docs
# The corpus case BenchmarkDiagnose uses; bench-cli times the whole process on it.
CORPUS   ?= fixtures/corpus
CASE     ?= $(CORPUS)/108-cx4lx-show-gids-96-vlan-subifs-link-local-only-no-ipv4-gids
# bench-cli: OPA's CLI (built from the go.mod version, not run through `go tool`, whose start-up
# would be timed too) and the facts document of CASE that it evaluates.
OPA      ?= bin/opa
FACTS    ?= bin/bench-facts.json
BENCHCOUNT ?= 5

.PHONY: golden fleet-report-png all build test lint fuzz bench bench-engine bench-cli bench-gather bench-hostile bench-snapshot bench-fleet docs deb

all: lint test build

build:
	$(GO) build -tags '$(TAGS)' -o $(BIN) ./cmd/rdmadoctor

test:
	$(GO) test ./...

# Rewrite docs/integrations/*.txt, what the integration tests observe of Slurm, the NHC harness,
# node_exporter, node-problem-detector and the installed package, from a run of those tests
# (as root, with the components installed: .ci/run's packages), and the blocks of
# docs/integrations.md that quote them (internal/golden TestDocQuotesGoldenFiles).
golden:
	RDMADOCTOR_UPDATE_GOLDEN=1 $(GO) test -count=1 ./cmd/rdmadoctor ./packaging \
		-run '^(TestSlurmHealthCheck|TestNHCCheck|TestNodeExporterServesMetrics|TestNPD|TestDeb|TestReadmeOutput)$$'
	RDMADOCTOR_UPDATE_GOLDEN=1 $(GO) test -count=1 ./internal/golden -run '^TestDocQuotesGoldenFiles$$'

# gofmt and go vet for Go; opa fmt and opa check --strict (unused imports, arguments and
# variables are errors) for the rules. The engine's tests also compile the built-in rules against
# the snapshot schema, which catches misspelt input fields.
# No Regal: the newest release the module proxy serves, v0.39.0, does not build with this go.mod's
# OPA v1.22.3 (OPA needs gobwas/glob v1.1.0, which dropped the glob.Glob Regal uses; v0.38.1 uses
# an OPA ast API that is gone), and running it on its own OPA would lint with a different parser.
lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) tool opa fmt --list --fail rules
	$(GO) tool opa check --strict rules

# Every Fuzz target of every package, FUZZTIME each (go test -fuzz takes one target at a time).
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$target"; \
			$(GO) test $$pkg -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE); \
		done; \
	done

bench:
	$(GO) test ./... -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME)

# The engine's load, prepare and evaluate on the largest corpus case, BENCHCOUNT runs each for
# benchstat (docs/performance.md).
bench-engine:
	$(GO) test ./engine -run '^$$' -bench BenchmarkDiagnose -benchmem -count $(BENCHCOUNT)

# Whole-process wall time of diagnose on one corpus case, against `opa eval` of the same rules
# on the same facts document (needs hyperfine; the goal is at most half of opa eval's time).
bench-cli: build $(OPA)
	$(BIN) facts --snapshot $(CASE) > $(FACTS)
	hyperfine --warmup 3 -N -i --export-json bin/bench-cli.json \
		'$(BIN) diagnose --snapshot $(CASE) --format json' \
		"$(OPA) eval --ignore '*_test.rego' -d rules -i $(FACTS) data.rdmadoctor.rules[pkg].findings"

# Live gathering: stubs sleeping 200-800 ms (goal: wall time <= 1.2x the slowest stub), and the
# real `rdmadoctor gather` against `sos report` for the same plugins, median of 5 (goal <= 0.2x;
# needs root and sos).
bench-gather:
	$(GO) test ./facts/live -run '^$$' -bench GatherStubs -benchtime 3x
	sh facts/live/testdata/bench_vs_sos.sh 5

# Wall time and peak RSS (/usr/bin/time) of diagnose on the huge inputs of issue 10, written by
# scripts/hostile into bin/hostile: 16 x 60 MB kernel logs in a .tar.gz, and a 60 MB ibstat
# (goal: each <= 512 MB, < 30 s).
bench-hostile: build
	sh scripts/bench_hostile.sh $(BIN) bin/hostile

# Issue 14: diagnose of sosreport-shaped archives (2,000 to 128,000 unrelated members and the
# captures of one corpus case, as .tar, .tar.gz and .tar.xz), each timed side by side with cat,
# gzip -dc or xz -dc of the same file (hyperfine), and its peak RSS (goal: diagnose of a .tar.xz
# <= 1.2x xz -dc, a flat time per unrelated member, <= 128 MB). The archives are written once into
# BENCHSNAP, never into the repository; the first run compresses them, which takes minutes.
# bench-fleet: one `fleet` call on 10,000 generated snapshots against `diagnose` once per
# snapshot on 200 of them, and the peak RSS of 10,000 vs 100 (docs/performance.md).
BENCHFLEET ?= /tmp/rdmadoctor-bench-fleet
bench-fleet: build
	bash scripts/bench-fleet.sh $(BIN) $(BENCHFLEET)

BENCHSNAP ?= /tmp/rdmadoctor-bench-snapshot
bench-snapshot: build
	bash scripts/bench-snapshot.sh $(BIN) $(BENCHSNAP)

$(OPA): go.mod go.sum
	$(GO) build -o $(OPA) github.com/open-policy-agent/opa

# Every generated file, through the //go:generate directives: docs/snapshot.schema.json,
# docs/profile.schema.json and facts/schema/comments_gen.go from the facts types
# (facts/schema/generate.go), and the rule reference docs/rules/ from the rules' METADATA
# (rules/generate.go). Tests fail while any of them is stale and say to run go generate ./...
docs:
	$(GO) generate ./...

# docs/fleet-report.png, the screenshot README shows: the HTML fleet report of 40 nodes made of
# corpus cases (report/render/html TestDocsScreenshot), in headless chromium, then reduced to 64
# colours by ImageMagick (CONVERT; the real one, not a stand-in earlier in PATH) to stay small.
CONVERT ?= /usr/bin/convert
fleet-report-png:
	RDMADOCTOR_FLEET_PNG=$(CURDIR)/docs/fleet-report.png $(GO) test ./report/render/html -run '^TestDocsScreenshot$$' -count=1 -v
	$(CONVERT) docs/fleet-report.png +dither -colors 64 -define png:compression-level=9 PNG8:docs/fleet-report.png

# The Debian package, DEBDIR/rdmadoctor_<version>_<arch>.deb (docs/integrations.md): the binary
# (static, with the version, commit and build date in -ldflags), the man page, the bash, zsh and
# fish completions, README.md, and contrib/ (Slurm, NHC, node-problem-detector) under
# /usr/share/rdmadoctor/contrib. nfpm is the `tool` of packaging/nfpm/go.mod (a module of its
# own, see there), the layout packaging/nfpm.yaml.
# SOURCE_DATE_EPOCH, when set, is the build date (reproducible builds).
DEBDIR      ?= bin/deb
DEB_COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
DEB_VERSION ?= $(shell v=0.1.0; c=$$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d%H%M%S 2>/dev/null) && \
	echo "$$v~git$$c.$$(git rev-parse --short=12 HEAD)" || echo "$$v")
DEB_DATE    ?= $(shell date -u -d "@$${SOURCE_DATE_EPOCH:-$$(date +%s)}" +%Y-%m-%dT%H:%M:%SZ)
DEB_ARCH    ?= $(shell $(GO) env GOARCH)
DEB_LDFLAGS  = -X main.buildVersion=$(DEB_VERSION) -X main.buildCommit=$(DEB_COMMIT) -X main.buildDate=$(DEB_DATE)

deb:
	rm -rf $(DEBDIR)/stage && mkdir -p $(DEBDIR)/stage
	CGO_ENABLED=0 $(GO) build -trimpath -tags '$(TAGS)' -ldflags '$(DEB_LDFLAGS)' -o $(DEBDIR)/stage/rdmadoctor ./cmd/rdmadoctor
	gzip -9n < docs/man/rdmadoctor.1 > $(DEBDIR)/stage/rdmadoctor.1.gz
	$(DEBDIR)/stage/rdmadoctor completion bash > $(DEBDIR)/stage/rdmadoctor.bash
	$(DEBDIR)/stage/rdmadoctor completion zsh > $(DEBDIR)/stage/_rdmadoctor
	$(DEBDIR)/stage/rdmadoctor completion fish > $(DEBDIR)/stage/rdmadoctor.fish
	sed -e 's|@DEB_VERSION@|$(DEB_VERSION)|; s|@DEB_ARCH@|$(DEB_ARCH)|; s|@DEB_SRC@|$(CURDIR)|; s|@DEB_STAGE@|$(abspath $(DEBDIR))/stage|' \
		packaging/nfpm.yaml > $(DEBDIR)/stage/nfpm.yaml
	$(GO) -C packaging/nfpm tool nfpm package --config '$(abspath $(DEBDIR))/stage/nfpm.yaml' --packager deb --target '$(abspath $(DEBDIR))/'
