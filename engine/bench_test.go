package engine_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/rules/plan"
)

// corpusDir is the copy of the shared corpus of real captures in fixtures/corpus.
const corpusDir = "../fixtures/corpus"

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
	s, err := build.Snapshot(fsys, info)
	if err != nil {
		b.Fatal(err)
	}
	return best, s
}

// BenchmarkDiagnose measures the built-in rules: preparing them (once per process) and
// evaluating them on the largest corpus case (once per snapshot). Goals: prepare <= 50 ms,
// evaluate <= 1 ms. What `rdmadoctor diagnose` does with the built-in rules alone:
//   - prepare: FromCompiled + Prepare with the plan compiled at build time (rules/plan);
//   - first-diagnose: prepare, then one Diagnose (which compiles the plan's functions it uses);
//   - evaluate: one Diagnose on a prepared engine that has run once.
//
// What it does with --rules folders (OPA's compiler and evaluator on the Rego source), and
// `rules test`:
//   - load: read, parse and validate the rules (Load, as the rules commands do);
//   - opa-prepare: load, parse and compile every rule with all checks (tests, --rules);
//   - opa-prepare-no-typecheck: the same without the check-only compiler stages;
//   - opa-first-diagnose: load, compile every rule, evaluate once (diagnose with --rules);
//   - opa-input: converting the snapshot to OPA's value (part of opa-evaluate);
//   - opa-evaluate: one Diagnose on an engine prepared with OPA's compiler.
func BenchmarkDiagnose(b *testing.B) {
	ctx := context.Background()
	name, snap := largestCase(b)
	b.Logf("case %s: %d devices, %d netdevs, %d PCI functions", name, len(snap.Devices), len(snap.Netdevs), len(snap.PCI))
	prepare := func(b *testing.B) *engine.Engine {
		set, err := engine.FromCompiled(plan.Rules())
		if err != nil {
			b.Fatal(err)
		}
		e, err := set.Prepare(ctx, engine.Options{Plan: plan.Policy()})
		if err != nil {
			b.Fatal(err)
		}
		return e
	}
	b.Run("prepare", func(b *testing.B) {
		for b.Loop() {
			prepare(b)
		}
	})
	b.Run("first-diagnose", func(b *testing.B) {
		for b.Loop() {
			if _, err := prepare(b).Diagnose(ctx, snap); err != nil {
				b.Fatal(err)
			}
		}
	})
	warm := prepare(b)
	if _, err := warm.Diagnose(ctx, snap); err != nil {
		b.Fatal(err)
	}
	b.Run("evaluate", func(b *testing.B) {
		for b.Loop() {
			if _, err := warm.Diagnose(ctx, snap); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, tc := range []struct {
		name string
		load func(...engine.Source) (*engine.Set, error)
	}{{"load", engine.Load}} {
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
	}{{"opa-prepare", engine.Options{}}, {"opa-prepare-no-typecheck", engine.Options{SkipTypeCheck: true}}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := engine.New(ctx, tc.opts, engine.Builtin()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("opa-first-diagnose", func(b *testing.B) {
		for b.Loop() {
			e, err := engine.New(ctx, engine.Options{}, engine.Builtin())
			if err != nil {
				b.Fatal(err)
			}
			if _, err := e.Diagnose(ctx, snap); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("opa-input", func(b *testing.B) {
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
	b.Run("opa-evaluate", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.Diagnose(ctx, snap); err != nil {
				b.Fatal(err)
			}
		}
	})
}
