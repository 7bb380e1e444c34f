// Package gen compiles the built-in rules to OPA's intermediate representation (IR) at build
// time and writes the plan as a Go composite literal, so that the binary loads it for free:
// compiling Rego at run time costs 80-170 ms and decoding plan.json 150 ms.
package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/compile"
	"github.com/open-policy-agent/opa/v1/ir"
	"github.com/open-policy-agent/opa/v1/tester"
)

// rulesPrefix is the package path under which every rule package lives
// (rdmadoctor.rules.<id>); each one is planned through its findings set.
var rulesPrefix = ast.MustParseRef("data.rdmadoctor.rules")

// Build plans the .rego files of fsys (laid out as rules.FS) with OPA's compile package, target
// "plan": one entrypoint rdmadoctor/rules/<id>/findings per rule package and, when tests is set,
// the *_test.rego files too with one entrypoint per test_* rule (<package path>/test_xxx, e.g.
// rdmadoctor/rules/<id>_test/test_fires). The plans are named by those entrypoints. Data files
// are left out: the planner reads base documents through the data local, not at plan time.
func Build(ctx context.Context, fsys fs.FS, tests bool) (*ir.Policy, error) {
	modules, err := parse(fsys, tests)
	if err != nil {
		return nil, err
	}
	b := &bundle.Bundle{Modules: modules}
	b.SetRegoVersion(ast.RegoV1)
	b.Manifest.Init()

	c := compile.New().
		WithTarget(compile.TargetPlan).
		WithRegoVersion(ast.RegoV1).
		WithBundle(b).
		// Without pruning, the compiler adds every rule that depends on an entrypoint as an
		// entrypoint of its own (the tests would appear even when tests is false); the set
		// is exactly what entrypoints lists.
		WithPruneUnused(true).
		WithEntrypoints(entrypoints(modules)...)
	if err := c.Build(ctx); err != nil {
		return nil, fmt.Errorf("plan rules: %w", err)
	}
	var p *ir.Policy
	for _, m := range c.Bundle().PlanModules {
		if m.Path == bundle.PlanFile {
			// The compiler keeps its *ir.Policy to itself; plan.json is what it hands out.
			p = new(ir.Policy)
			if err := json.Unmarshal(m.Raw, p); err != nil {
				return nil, fmt.Errorf("decode %s: %w", m.Path, err)
			}
		}
	}
	if p == nil {
		return nil, fmt.Errorf("plan rules: compiler wrote no %s", bundle.PlanFile)
	}
	derefVals(reflect.ValueOf(p))
	return p, nil
}

var valType = reflect.TypeFor[ir.Val]()

// derefVals replaces the *ir.Local, *ir.StringIndex and *ir.Bool that ir's JSON decoding puts in
// the ir.Val of an operand by the values that the planner makes and that ir.PolicyToProto and
// interpreters switch on.
func derefVals(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			derefVals(v.Elem())
		}
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		if e := v.Elem(); v.Type() == valType && e.Kind() == reflect.Pointer && v.CanSet() {
			v.Set(e.Elem())
			return
		}
		derefVals(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			derefVals(v.Field(i))
		}
	case reflect.Slice:
		for i := range v.Len() {
			derefVals(v.Index(i))
		}
	}
}

// parse reads the .rego files of fsys in path order, without the tests unless tests is set.
func parse(fsys fs.FS, tests bool) ([]bundle.ModuleFile, error) {
	var modules []bundle.ModuleFile
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(name) != ".rego" {
			return err
		}
		if !tests && strings.HasSuffix(name, "_test.rego") {
			return nil
		}
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return fmt.Errorf("read %s: %w", name, err)
		}
		m, err := ast.ParseModuleWithOpts(name, string(raw), ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			return err // names the file and row
		}
		modules = append(modules, bundle.ModuleFile{URL: name, Path: name, Raw: raw, Parsed: m})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return modules, nil
}

// entrypoints lists, sorted, the findings of every rdmadoctor.rules.<id> package and every test_*
// rule of the _test.rego files among modules.
func entrypoints(modules []bundle.ModuleFile) []string {
	var eps []string
	for _, mf := range modules {
		pkg := mf.Parsed.Package.Path
		if !strings.HasSuffix(mf.Path, "_test.rego") {
			if len(pkg) == len(rulesPrefix)+1 && pkg.HasPrefix(rulesPrefix) {
				eps = append(eps, dataPath(pkg, "findings"))
			}
			continue
		}
		for _, r := range mf.Parsed.Rules {
			if name := testName(r); name != "" {
				eps = append(eps, dataPath(pkg, name))
			}
		}
	}
	slices.Sort(eps)
	return slices.Compact(eps)
}

// testName is the name of r when it is a test rule as OPA's tester sees it (test_ prefix on the
// first term of the head), or "".
func testName(r *ast.Rule) string {
	ref := r.Head.Ref()
	if len(ref) == 0 {
		return ""
	}
	v, ok := ref[0].Value.(ast.Var)
	if !ok || !strings.HasPrefix(string(v), tester.TestPrefix) {
		return ""
	}
	return string(v)
}

// dataPath is the entrypoint path (slash separated, without data) of rule in package pkg.
func dataPath(pkg ast.Ref, rule string) string {
	parts := make([]string, 0, len(pkg))
	for _, t := range pkg[1:] {
		parts = append(parts, strings.Trim(t.Value.String(), `"`))
	}
	return strings.Join(append(parts, rule), "/")
}
