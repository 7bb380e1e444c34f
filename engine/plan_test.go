package engine

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"

	"github.com/rdmadoctor/rdmadoctor/rules/plan"
)

func builtinPlan(testing.TB) *ir.Policy { return plan.Policy() }

// TestPlanMatchesEager: the compiled rules give the report OPA's evaluator gives on the fully
// checked rules, on every corpus case.
func TestPlanMatchesEager(t *testing.T) {
	ctx := context.Background()
	eager, err := New(ctx, Options{}, Builtin())
	if err != nil {
		t.Fatal(err)
	}
	set, err := LoadCompiled(plan.Rules())
	if err != nil {
		t.Fatal(err)
	}
	planned, err := set.Prepare(ctx, Options{Plan: builtinPlan(t)})
	if err != nil {
		t.Fatal(err)
	}
	for d, s := range corpusSnapshots(t) {
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

// TestLoadCompiled: the compiled metadata (rules/plan/rules.json) decodes to the set Load makes
// of the rules, and such a set prepares only with a plan.
func TestLoadCompiled(t *testing.T) {
	want, err := Load(Builtin())
	if err != nil {
		t.Fatal(err)
	}
	got, err := LoadCompiled(plan.Rules())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Rules, got.Rules, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
		t.Errorf("rules differ (-Load +LoadCompiled):\n%s", diff)
	}
	if diff := cmp.Diff(want.order, got.order); diff != "" {
		t.Errorf("catalog order differs:\n%s", diff)
	}
	wd, err := ast.InterfaceToValue(want.data)
	if err != nil {
		t.Fatal(err)
	}
	gd, err := ast.InterfaceToValue(got.data)
	if err != nil {
		t.Fatal(err)
	}
	if wd.Compare(gd) != 0 {
		t.Errorf("data differs:\n%v\n%v", wd, gd)
	}
	if _, err := got.Prepare(context.Background(), Options{}); err == nil {
		t.Error("a compiled set prepared without its plan")
	}
	for _, bad := range []string{`{`, `{"rules": [{"id": "x"}]}`, `{"rules": [{"id": "x", "package": "x"}, {"id": "x", "package": "x"}]}`} {
		if _, err := LoadCompiled([]byte(bad)); err == nil {
			t.Errorf("LoadCompiled(%s) succeeded", bad)
		}
	}
}
