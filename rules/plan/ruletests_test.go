package plan_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/engine/ireval"
	"github.com/rdmadoctor/rdmadoctor/rules"
	"github.com/rdmadoctor/rdmadoctor/rules/plan"
	"github.com/rdmadoctor/rdmadoctor/rules/plan/internal/gen"
)

// TestRuleTestsOnPlan runs every test_* rule of the built-in rules (`opa test rules` runs them
// with OPA's evaluator) through the IR interpreter that diagnose uses: each must be true. With
// the corpus comparison in package engine (TestPlanMatchesEager), this holds the compiled rules
// to the Rego semantics on the firing and near-miss cases of every rule.
func TestRuleTestsOnPlan(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p, err := gen.Build(ctx, rules.FS, true)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := ireval.Prepare(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := prog.Check(); err != nil {
		t.Fatal(err)
	}
	set, err := engine.Load(engine.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	data, err := ast.InterfaceToValue(set.Data())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, name := range prog.Plans() {
		if strings.Contains(name, "_test/test_") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if len(names) < 300 {
		t.Fatalf("%d test plans: the rules have more than 300 tests", len(names))
	}
	result := ast.StringTerm("result")
	for _, name := range names {
		ev, err := prog.NewEval(ctx, nil, ast.NewTerm(data), ireval.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rs, err := ev.Run(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(rs) != 1 || rs[0].Value.(ast.Object).Get(result).Value.Compare(ast.Boolean(true)) != 0 {
			t.Errorf("%s: %v, want true", name, rs)
		}
	}
}

// TestPolicyCompiles: every function and plan of the built-in rules' plan compiles (diagnose
// compiles them on first use).
func TestPolicyCompiles(t *testing.T) {
	t.Parallel()
	prog, err := ireval.Prepare(plan.Policy())
	if err != nil {
		t.Fatal(err)
	}
	if err := prog.Check(); err != nil {
		t.Fatal(err)
	}
}
