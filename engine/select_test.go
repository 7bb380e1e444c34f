package engine_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
)

// TestSelectedRules: Prepare with Options.Rules compiles those rules and the rule packages they
// import; Diagnose refuses a snapshot on which a rule it left out could run; a rule module that
// only its header was read of is still checked for `findings` when it is compiled.
func TestSelectedRules(t *testing.T) {
	ctx := context.Background()
	lspci := []string{"requires: [ib_ports]", "requires: [lspci]"}
	fsys := fstest.MapFS{
		"a/first.rego":  {Data: []byte(rule("first"))},
		"a/second.rego": {Data: []byte(rule("second", append(lspci, "findings contains", "import data.rdmadoctor.rules.third\n\nfindings contains")...))},
		"a/third.rego":  {Data: []byte(rule("third", lspci...))},
		"a/fourth.rego": {Data: []byte(rule("fourth", append(lspci, "findings contains", "others contains")...))},
	}
	set, err := engine.Load(engine.Source{Name: "t", FS: fsys, Tested: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(set.Runnable(&facts.Snapshot{Available: []string{"lspci"}}), " "); got != "fourth second third" {
		t.Errorf("Runnable with lspci = %q, want %q", got, "fourth second third")
	}
	e, err := set.Prepare(ctx, engine.Options{Rules: []string{"second"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Diagnose(ctx, &facts.Snapshot{Available: []string{"lspci"}})
	if err == nil {
		t.Errorf("Diagnose ran although rule fourth, which can run, was not compiled (%d evaluated)", r.Evaluated)
	}
	set2, err := engine.Load(engine.Source{Name: "t", FS: fstest.MapFS{"a/second.rego": fsys["a/second.rego"], "a/third.rego": fsys["a/third.rego"], "a/first.rego": fsys["a/first.rego"]}, Tested: true})
	if err != nil {
		t.Fatal(err)
	}
	e, err = set2.Prepare(ctx, engine.Options{Rules: []string{"second"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err = e.Diagnose(ctx, &facts.Snapshot{Available: []string{"lspci"}})
	if err != nil {
		t.Fatalf("Diagnose with second and the third it imports: %v", err)
	}
	if r.Evaluated != 2 {
		t.Errorf("evaluated %d rules, want 2 (second and third)", r.Evaluated)
	}
	_, err = set.Prepare(ctx, engine.Options{Rules: []string{"fourth"}})
	if err == nil || !strings.Contains(err.Error(), "t/a/fourth.rego:") || !strings.Contains(err.Error(), "defines no `findings`") {
		t.Errorf("Prepare of a rule without findings: %v", err)
	}
}
