package plan_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/rdmadoctor/rdmadoctor/rules"
	"github.com/rdmadoctor/rdmadoctor/rules/plan"
	"github.com/rdmadoctor/rdmadoctor/rules/plan/internal/gen"
)

// TestGenerated fails while policy_gen.go is not what the rules compile to.
func TestGenerated(t *testing.T) {
	t.Parallel()
	p, err := gen.Build(context.Background(), rules.FS, false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := gen.GoSource(p, "plan")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("policy_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("policy_gen.go is stale: run `go generate ./rules/plan`")
	}
}

// TestPolicy checks that there is one plan per rule package and that the literal in
// policy_gen.go holds what the planner made, less what GoSource leaves out.
func TestPolicy(t *testing.T) {
	t.Parallel()
	want, err := gen.Build(context.Background(), rules.FS, false)
	if err != nil {
		t.Fatal(err)
	}
	got := plan.Policy()

	var names []string
	for _, p := range got.Plans.Plans {
		names = append(names, p.Name)
	}
	slices.Sort(names)
	if diff := cmp.Diff(rulePlans(t), names); diff != "" {
		t.Errorf("plans (-want +got):\n%s", diff)
	}

	for _, bi := range want.Static.BuiltinFuncs {
		if decl := ast.BuiltinMap[bi.Name]; decl == nil || types.Compare(decl.Decl, bi.Decl) != 0 {
			t.Errorf("built-in %s: planned declaration %v is not ast.BuiltinMap's", bi.Name, bi.Decl)
		}
	}
	// What GoSource leaves out; then DeepEqual, as cmp.Diff takes seconds on a whole plan.
	want.Static.Files = nil
	if err := ir.Walk(omitted{}, want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want, got) {
		t.Errorf("Policy() is not what Build plans (-want +got):\n%s", cmp.Diff(want, got, cmpopts.IgnoreTypes(ir.Location{})))
	}
}

// omitted clears the statement locations and built-in declarations of a plan.
type omitted struct{}

func (omitted) Before(any) {}
func (omitted) After(any)  {}
func (v omitted) Visit(x any) (ir.Visitor, error) {
	switch x := x.(type) {
	case ir.Stmt:
		x.SetLocation(0, 0, 0, "", nil)
	case *ir.BuiltinFunc:
		x.Decl = nil
	}
	return v, nil
}

// TestBuildTests checks that with the tests, every test_* rule is an entrypoint of its own.
func TestBuildTests(t *testing.T) {
	t.Parallel()
	p, err := gen.Build(context.Background(), rules.FS, true)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, pl := range p.Plans.Plans {
		got[pl.Name] = true
	}
	want := rulePlans(t)
	for _, src := range regoFiles(t, "_test.rego") {
		pkg := strings.ReplaceAll(packageLine.FindStringSubmatch(src)[1], ".", "/")
		for _, m := range testRule.FindAllStringSubmatch(src, -1) {
			want = append(want, pkg+"/"+m[1])
		}
	}
	for _, name := range want {
		if !got[name] {
			t.Errorf("no plan %s", name)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d plans, want %d", len(got), len(want))
	}
}

var (
	packageLine = regexp.MustCompile(`(?m)^package (\S+)`)
	testRule    = regexp.MustCompile(`(?m)^(test_\w+)`)
)

// rulePlans lists the plan expected for each rdmadoctor.rules.<id> package of rules.FS.
func rulePlans(t *testing.T) []string {
	var names []string
	for _, src := range regoFiles(t, ".rego") {
		if m := packageLine.FindStringSubmatch(src); strings.HasPrefix(m[1], "rdmadoctor.rules.") {
			names = append(names, strings.ReplaceAll(m[1], ".", "/")+"/findings")
		}
	}
	if len(names) == 0 {
		t.Fatal("no rule packages in rules.FS")
	}
	slices.Sort(names)
	return names
}

// regoFiles reads the .rego files of rules.FS, in path order, whose names end in suffix; with
// suffix ".rego" the non-test ones.
func regoFiles(t *testing.T, suffix string) []string {
	t.Helper()
	var srcs []string
	err := fs.WalkDir(rules.FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(name) != ".rego" || !strings.HasSuffix(name, suffix) ||
			suffix == ".rego" && strings.HasSuffix(name, "_test.rego") {
			return err
		}
		b, err := fs.ReadFile(rules.FS, name)
		srcs = append(srcs, string(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return srcs
}

// TestRulesGenerated fails while rules_gen.go is not the metadata the engine reads from the
// rules.
func TestRulesGenerated(t *testing.T) {
	t.Parallel()
	want, err := gen.BuiltinRulesSource("plan")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("rules_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("rules_gen.go is stale: run `go generate ./rules/plan`")
	}
}
