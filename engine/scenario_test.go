package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// expectation is a case's expect.json (fixtures/corpus/README.md), plus "top":
// the id that must rank first (used by fixtures/scenarios).
type expectation struct {
	Top        string   `json:"top"`
	Top3All    []string `json:"top3_all"`
	Top3Any    []string `json:"top3_any"`
	Present    []string `json:"present"`
	Absent     []string `json:"absent"`
	Healthy    bool     `json:"healthy"`
	NoCritical bool     `json:"no_critical"`
	Stretch    bool     `json:"stretch"`
	// ExplainedBy maps a diagnosis id to the id of the cause it must be placed under
	// (explained_by set, ranked below it).
	ExplainedBy map[string]string `json:"explained_by"`
	// WithoutProfile is checked on a second run that ignores profile.yaml.
	WithoutProfile *expectation `json:"without_profile"`
}

var (
	builtinOnce sync.Once
	builtin     *engine.Engine
	builtinErr  error
)

func builtinEngine(t *testing.T) *engine.Engine {
	t.Helper()
	builtinOnce.Do(func() { builtin, builtinErr = engine.New(context.Background(), engine.Options{}, engine.Builtin()) })
	if builtinErr != nil {
		t.Fatal(builtinErr)
	}
	return builtin
}

// TestCorpusScenarios runs the whole pipeline (source, gather, engine) on every corpus case that
// has an expect.json and judges the report the way check-corpus does. A case that expects a rule
// id the engine does not have yet is skipped, naming the id.
func TestCorpusScenarios(t *testing.T) {
	runScenarios(t, fixtures.CorpusDir(t))
}

// TestFixtureScenarios does the same for fixtures/scenarios (built from real captures, see their
// PROVENANCE.md); these name the diagnosis that must rank first.
func TestFixtureScenarios(t *testing.T) {
	runScenarios(t, "../fixtures/scenarios")
}

func runScenarios(t *testing.T, root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	e := builtinEngine(t)
	known := map[string]bool{}
	for _, r := range e.Rules() {
		known[r.ID] = true
	}
	for _, ent := range entries {
		dir := filepath.Join(root, ent.Name())
		b, err := os.ReadFile(filepath.Join(dir, "expect.json"))
		if !ent.IsDir() || err != nil {
			continue
		}
		t.Run(ent.Name(), func(t *testing.T) {
			var exp expectation
			if err := json.Unmarshal(b, &exp); err != nil {
				t.Fatalf("expect.json: %v", err)
			}
			if missing := unknownIDs(exp, known); len(missing) > 0 {
				t.Skipf("expects rules not in the engine yet: %s", strings.Join(missing, ", "))
			}
			rep := diagnose(t, e, dir, true)
			t.Logf("diagnoses: %s", summary(rep))
			for _, why := range judge(rep, exp) {
				if exp.Stretch {
					t.Skipf("stretch case: %s", why)
				}
				t.Error(why)
			}
			if exp.WithoutProfile != nil {
				rep := diagnose(t, e, dir, false)
				t.Logf("without profile: %s", summary(rep))
				for _, why := range judge(rep, *exp.WithoutProfile) {
					t.Error("without profile: " + why)
				}
			}
		})
	}
}

func unknownIDs(exp expectation, known map[string]bool) []string {
	var out []string
	for _, ids := range [][]string{{exp.Top}, exp.Top3All, exp.Top3Any, exp.Present} {
		for _, id := range ids {
			if id != "" && !known[id] {
				out = append(out, id)
			}
		}
	}
	return out
}

func summary(rep *report.Report) string {
	var ranked []string
	for _, d := range rep.Diagnoses {
		ranked = append(ranked, fmt.Sprintf("%d:%s(%s/%s)", d.Rank, d.ID, d.Severity, d.Confidence))
	}
	return strings.Join(ranked, ", ")
}

// diagnose runs the pipeline on dir, with its profile.yaml when withProfile is set.
func diagnose(t *testing.T, e *engine.Engine, dir string, withProfile bool) *report.Report {
	t.Helper()
	fsys, info, err := source.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := build.Snapshot(fsys, info)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "profile.yaml")); err == nil && withProfile {
		var p facts.Profile
		if err := yaml.Unmarshal(b, &p); err != nil {
			t.Fatalf("profile.yaml: %v", err)
		}
		s.Profile = &p
	}
	rep, err := e.Diagnose(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// judge mirrors check-corpus: it returns why the report misses the expectation.
func judge(rep *report.Report, exp expectation) []string {
	top3, all := map[string]bool{}, map[string]bool{}
	first := ""
	for _, d := range rep.Diagnoses {
		all[d.ID] = true
		if d.Rank <= 3 {
			top3[d.ID] = true
		}
		if d.Rank == 1 {
			first = d.ID
		}
	}
	var why []string
	if exp.Top != "" && first != exp.Top {
		why = append(why, fmt.Sprintf("%s not ranked first (first: %q)", exp.Top, first))
	}
	for _, id := range exp.Top3All {
		if !top3[id] {
			why = append(why, id+" not in top 3")
		}
	}
	if len(exp.Top3Any) > 0 {
		hit := false
		for _, id := range exp.Top3Any {
			hit = hit || top3[id]
		}
		if !hit {
			why = append(why, fmt.Sprintf("none of %v in top 3", exp.Top3Any))
		}
	}
	for _, id := range exp.Present {
		if !all[id] {
			why = append(why, id+" missing")
		}
	}
	for _, id := range exp.Absent {
		if all[id] {
			why = append(why, id+" present")
		}
	}
	rank := map[string]int{}
	for _, d := range rep.Diagnoses {
		if _, ok := rank[d.ID]; !ok {
			rank[d.ID] = d.Rank
		}
	}
	for id, cause := range exp.ExplainedBy {
		if !all[id] {
			continue // reported as missing when expected present
		}
		for _, d := range rep.Diagnoses {
			if d.ID == id && (d.ExplainedBy == nil || *d.ExplainedBy != cause || d.Rank < rank[cause]) {
				got := "nothing"
				if d.ExplainedBy != nil {
					got = *d.ExplainedBy
				}
				why = append(why, fmt.Sprintf("%s (rank %d) explained by %s, want %s (rank %d)", id, d.Rank, got, cause, rank[cause]))
			}
		}
	}
	for _, d := range rep.Diagnoses {
		if exp.Healthy && (d.Severity == "critical" || d.Severity == "error") {
			why = append(why, fmt.Sprintf("healthy case got %s (%s)", d.ID, d.Severity))
		}
		if exp.NoCritical && d.Severity == "critical" {
			why = append(why, fmt.Sprintf("critical %s", d.ID))
		}
	}
	return why
}
