package engine_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/gather"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// corpusDir is the shared corpus of real captures, beside the repository.
const corpusDir = "../../shared/corpus"

// largestCase returns the snapshot of the corpus case with the most bytes of captures.
func largestCase(b *testing.B) (string, *facts.Snapshot) {
	b.Helper()
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		b.Skipf("no corpus: %v", err)
	}
	best, bestSize := "", int64(-1)
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		var size int64
		filepath.WalkDir(filepath.Join(corpusDir, e.Name()), func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if info, err := d.Info(); err == nil {
					size += info.Size()
				}
			}
			return nil
		})
		if size > bestSize {
			best, bestSize = e.Name(), size
		}
	}
	fsys, info, err := source.Open(filepath.Join(corpusDir, best))
	if err != nil {
		b.Fatal(err)
	}
	s, err := gather.Build(fsys, info)
	if err != nil {
		b.Fatal(err)
	}
	return best, s
}

// BenchmarkDiagnose measures the built-in rules: loading and preparing them (once per process)
// and evaluating them on the largest corpus case (once per snapshot). Goals: prepare <= 50 ms,
// evaluate <= 1 ms. Sub-benchmarks:
//   - load: read, parse and validate the rules (Load, as the rules commands do);
//   - load-headers: the same, parsing the built-in rules only up to their package clause (the
//     METADATA), as New does with Options.Lazy;
//   - prepare: load, parse and compile every rule with all checks (tests, --rules);
//   - prepare-no-typecheck: the same without the check-only compiler stages;
//   - lazy-first-diagnose: what `rdmadoctor diagnose` does with the built-in rules: load, then
//     compile only the rules the case can run and evaluate them once;
//   - input: converting the snapshot to OPA's value (part of evaluate);
//   - evaluate: one Diagnose on a prepared engine.
func BenchmarkDiagnose(b *testing.B) {
	ctx := context.Background()
	name, snap := largestCase(b)
	b.Logf("case %s: %d devices, %d netdevs, %d PCI functions", name, len(snap.Devices), len(snap.Netdevs), len(snap.PCI))
	for _, tc := range []struct {
		name string
		load func(...engine.Source) (*engine.Set, error)
	}{{"load", engine.Load}, {"load-headers", engine.LoadHeaders}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := tc.load(engine.Builtin()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, tc := range []struct {
		name string
		opts engine.Options
	}{{"prepare", engine.Options{}}, {"prepare-no-typecheck", engine.Options{SkipTypeCheck: true}}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := engine.New(ctx, tc.opts, engine.Builtin()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("lazy-first-diagnose", func(b *testing.B) {
		for b.Loop() {
			e, err := engine.New(ctx, engine.Options{SkipTypeCheck: true, Lazy: true}, engine.Builtin())
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
	e, err := engine.New(ctx, engine.Options{}, engine.Builtin())
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
