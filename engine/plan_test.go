package engine_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/rules/plan"
)

// TestPlanMatchesEager: the compiled rules give the report OPA's evaluator gives on the fully
// checked rules, on every corpus case.
func TestPlanMatchesEager(t *testing.T) {
	ctx := context.Background()
	eager, err := engine.New(ctx, engine.Options{}, engine.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	set, err := engine.FromCompiled(plan.Rules())
	if err != nil {
		t.Fatal(err)
	}
	planned, err := set.Prepare(ctx, engine.Options{Plan: plan.Policy()})
	if err != nil {
		t.Fatal(err)
	}
	for d, s := range engine.CorpusSnapshots(t) {
		want, err := eager.Diagnose(ctx, s)
		if err != nil {
			t.Fatalf("%s: eager: %v", d, err)
		}
		got, err := planned.Diagnose(ctx, s)
		if err != nil {
			t.Fatalf("%s: plan: %v", d, err)
		}
		if diff := cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
			t.Errorf("%s: plan report differs (-eager +plan):\n%s", filepath.Base(d), diff)
		}
	}
}

// TestFromCompiled: the compiled metadata (rules/plan/rules_gen.go) makes the set engine.Load makes of
// the rules, and such a set prepares only with a plan.
func TestFromCompiled(t *testing.T) {
	want, err := engine.Load(engine.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	got, err := engine.FromCompiled(plan.Rules())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Rules, got.Rules, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
		t.Errorf("rules differ (-engine.Load +engine.FromCompiled):\n%s", diff)
	}
	if diff := cmp.Diff(engine.OrderOf(want), engine.OrderOf(got)); diff != "" {
		t.Errorf("catalog order differs:\n%s", diff)
	}
	wd, err := ast.InterfaceToValue(want.Data())
	if err != nil {
		t.Fatal(err)
	}
	gd, err := ast.InterfaceToValue(got.Data())
	if err != nil {
		t.Fatal(err)
	}
	if wd.Compare(gd) != 0 {
		t.Errorf("data differs:\n%v\n%v", wd, gd)
	}
	if _, err := got.Prepare(context.Background(), engine.Options{}); err == nil {
		t.Error("a compiled set prepared without its plan")
	}
	x := engine.CompiledRule{Rule: engine.Rule{ID: "x"}, Package: "x"}
	for _, bad := range []*engine.CompiledSet{nil, {Rules: []engine.CompiledRule{{Rule: engine.Rule{ID: "x"}}}}, {Rules: []engine.CompiledRule{x, x}}} {
		if _, err := engine.FromCompiled(bad); err == nil {
			t.Errorf("engine.FromCompiled(%+v) succeeded", bad)
		}
	}
}
