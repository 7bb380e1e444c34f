package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/rules/plan"
)

// TestBuiltinEngineStale: the compiled rules are used when they match the embedded rules; a
// binary whose rules changed since `go generate ./rules/plan` warns and evaluates the rules from
// source, which gives the same report.
func TestBuiltinEngineStale(t *testing.T) {
	ctx := context.Background()
	fsys, info, err := source.Open("../../fixtures/scenarios/cx-ib-mode-on-ethernet-switch")
	if err != nil {
		t.Fatal(err)
	}
	snap, err := build.Snapshot(fsys, info)
	if err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	fresh, err := builtinEngine(ctx, plan.Rules(), plan.Policy(), &warn)
	if err != nil {
		t.Fatal(err)
	}
	if warn.Len() > 0 {
		t.Errorf("warning with up-to-date compiled rules: %s", warn.String())
	}
	stale := *plan.Rules()
	stale.Digest = "0000"
	fallback, err := builtinEngine(ctx, &stale, plan.Policy(), &warn)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warn.String(), "go generate ./rules/plan") {
		t.Errorf("no warning for stale compiled rules: %q", warn.String())
	}
	want, err := fresh.Diagnose(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fallback.Diagnose(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Diagnoses) == 0 || len(got.Diagnoses) != len(want.Diagnoses) || got.Diagnoses[0].ID != want.Diagnoses[0].ID {
		t.Errorf("fallback report differs: %d diagnoses (first %v), want %d", len(got.Diagnoses), got.Diagnoses, len(want.Diagnoses))
	}
}
