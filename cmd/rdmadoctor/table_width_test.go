package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
	"github.com/rdmadoctor/rdmadoctor/report"
	"github.com/rdmadoctor/rdmadoctor/report/render"
)

// TestTableFitsTerminal: the table of every corpus case (and scenario), laid out to 100 and to
// 120 columns, has no line wider than that, counted in display columns (└ is one, a CJK rune
// two), not bytes; verbose, with every skipped rule listed, too. Each case is read and
// diagnosed as diagnose does (the rules compiled once, for speed) and its report rendered at
// both widths; table.txtar checks the COLUMNS path end to end.
func TestTableFitsTerminal(t *testing.T) {
	ctx := context.Background()
	rules, err := prepareRules(ctx, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	e, err := rules.set.Prepare(ctx, engine.Options{SkipTypeCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	cases, _ := filepath.Glob(filepath.Join(fixtures.CorpusDir(t), "[0-9]*"))
	scenarios, _ := filepath.Glob(fixtures.Path("scenarios/*"))
	n := 0
	for _, dir := range append(cases, scenarios...) {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		fsys, info, err := source.Open(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		s, err := build.Snapshot(fsys, info)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		live.AnnotateFS(s, fsys)
		if p := filepath.Join(dir, "profile.yaml"); fileExists(p) {
			if s.Profile, err = readProfile(p); err != nil {
				t.Fatal(err)
			}
		}
		r, err := e.Diagnose(ctx, s)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, width := range []int{100, 120} {
			var b bytes.Buffer
			if err := render.Table(&b, r, render.Options{Width: width, Verbose: true}); err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(b.String(), "\n") {
				if w := runewidth.StringWidth(line); w > width {
					t.Errorf("%s at %d columns: line %d is %d wide:\n%s", filepath.Base(dir), width, i+1, w, line)
				}
			}
			n++
		}
	}
	if n < 120 {
		t.Errorf("checked %d tables, want every corpus case and scenario at two widths (120+)", n)
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestFleetTableFitsTerminal: the fleet table of the scenarios and of the corpus, each read as
// one fleet, laid out to 80, 100 and 120 columns, has no line wider than that (display columns)
// and no cell clipped by go-pretty (a line ending in " ~"): host names, messages and commands
// wrap, they never lose characters.
func TestFleetTableFitsTerminal(t *testing.T) {
	for _, dir := range []string{fixtures.Path("scenarios"), fixtures.CorpusDir(t)} {
		code, stdout, stderr := runCLI(t, "fleet", "--format", "json", dir)
		if code != 0 && code != 1 {
			t.Fatalf("fleet %s: exit %d\n%s", dir, code, stderr)
		}
		var f report.Fleet
		if err := json.Unmarshal([]byte(stdout), &f); err != nil {
			t.Fatal(err)
		}
		if len(f.Groups) == 0 || len(f.FleetDiagnoses) == 0 && filepath.Base(dir) == "scenarios" {
			t.Fatalf("fleet %s: %d groups, %d fleet diagnoses: nothing to lay out", dir, len(f.Groups), len(f.FleetDiagnoses))
		}
		for _, width := range []int{80, 100, 120} {
			var b bytes.Buffer
			if err := render.FleetTable(&b, &f, render.Options{Width: width}); err != nil {
				t.Fatal(err)
			}
			bad := 0
			for i, line := range strings.Split(b.String(), "\n") {
				w := runewidth.StringWidth(line)
				if w > width || strings.HasSuffix(line, " ~") {
					if bad++; bad <= 5 {
						t.Errorf("%s at %d columns: line %d is %d wide or clipped:\n%s", filepath.Base(dir), width, i+1, w, line)
					}
				}
			}
			if bad > 5 {
				t.Errorf("%s at %d columns: %d more such lines", filepath.Base(dir), width, bad-5)
			}
		}
	}
}
