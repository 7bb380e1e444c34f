package engine_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// corpusDir is the copy of the shared corpus of real captures in fixtures/corpus.
const corpusDir = "../fixtures/corpus"

// benchCase is the corpus case with the largest facts document (2 RDMA devices with 98 GIDs per
// port, 102 netdevs: 391 kB of JSON), the one `make bench-cli` times too.
const benchCase = "108-cx4lx-show-gids-96-vlan-subifs-link-local-only-no-ipv4-gids"

// largestCase returns benchCase's snapshot.
func largestCase(b *testing.B) (string, *facts.Snapshot) {
	b.Helper()
	fsys, info, err := source.Open(filepath.Join(corpusDir, benchCase))
	if err != nil {
		b.Fatal(err)
	}
	s, err := build.Snapshot(fsys, info)
	if err != nil {
		b.Fatal(err)
	}
	return benchCase, s
}

// BenchmarkDiagnose measures the rules on the largest corpus case, the way `rdmadoctor diagnose`
// runs them (docs/performance.md):
//   - load: read the rule files, parse them and their METADATA, validate (Load);
//   - prepare: load, compile and prepare the built-in rules without the check-only compiler
//     stages (diagnose without --rules: the tests type-check the built-in rules);
//   - prepare-typecheck: the same with every check and the snapshot schema (--rules, rules test);
//   - first-diagnose: prepare, then one Diagnose;
//   - diagnose: what `rdmadoctor diagnose` does after reading the snapshot: load, compile only
//     the rules that can run on it, one Diagnose;
//   - input: the snapshot as OPA's input value (part of evaluate);
//   - evaluate: one Diagnose on a prepared engine (each further snapshot of a fleet).
func BenchmarkDiagnose(b *testing.B) {
	ctx := context.Background()
	name, snap := largestCase(b)
	b.Logf("case %s: %d devices, %d netdevs, %d PCI functions", name, len(snap.Devices), len(snap.Netdevs), len(snap.PCI))
	builtin := engine.Options{SkipTypeCheck: true}
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			if _, err := engine.Load(engine.Builtin()); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, tc := range []struct {
		name string
		opts engine.Options
	}{{"prepare", builtin}, {"prepare-typecheck", engine.Options{}}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := engine.New(ctx, tc.opts, engine.Builtin()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("first-diagnose", func(b *testing.B) {
		for b.Loop() {
			e, err := engine.New(ctx, builtin, engine.Builtin())
			if err != nil {
				b.Fatal(err)
			}
			if _, err := e.Diagnose(ctx, snap); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("diagnose", func(b *testing.B) {
		for b.Loop() {
			set, err := engine.Load(engine.Builtin())
			if err != nil {
				b.Fatal(err)
			}
			e, err := set.Prepare(ctx, engine.Options{SkipTypeCheck: true, Rules: set.Runnable(snap)})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := e.Diagnose(ctx, snap); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("input", func(b *testing.B) {
		for b.Loop() {
			if _, err := engine.InputValue(snap); err != nil {
				b.Fatal(err)
			}
		}
	})
	e, err := engine.New(ctx, builtin, engine.Builtin())
	if err != nil {
		b.Fatal(err)
	}
	b.Run("evaluate", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.Diagnose(ctx, snap); err != nil {
				b.Fatal(err)
			}
		}
	})
}
