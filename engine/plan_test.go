package engine

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	planned, err := New(ctx, Options{Plan: builtinPlan(t)}, Builtin())
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
