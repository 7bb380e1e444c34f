package engine

import (
	"context"
	"fmt"
	"sort"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/engine/ireval"
	"github.com/rdmadoctor/rdmadoctor/facts"
)

// planName is the name of the plan of a rule package's findings in the IR of rules/plan.
func planName(pkg string) string { return "rdmadoctor/rules/" + pkg + "/findings" }

// prepareProgram readies opts.Plan for evaluation: every rule of the set must have its plan.
func (e *Engine) prepareProgram() error {
	prog, err := ireval.Prepare(e.opts.Plan)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, name := range prog.Plans() {
		have[name] = true
	}
	for _, r := range e.set.Rules {
		if !have[planName(r.pkg)] {
			return fmt.Errorf("rule %s (package %s) is not in the compiled rules: run `go generate ./rules/plan`", r.ID, r.pkg)
		}
	}
	data, err := ast.InterfaceToValue(e.set.data)
	if err != nil {
		return err
	}
	e.prog, e.planData = prog, ast.NewTerm(data)
	return nil
}

// evalPlan evaluates the compiled rules of the packages in run on s; a rule whose evaluation
// fails (a conflict error) is reported in failed, the others still run.
func (e *Engine) evalPlan(ctx context.Context, s *facts.Snapshot, run map[string]bool) ([]rawFinding, map[string]string, error) {
	ev, err := e.prog.NewEval(ctx, s, e.planData, ireval.Options{Shared: evidenceType})
	if err != nil {
		return nil, nil, err
	}
	pkgs := make([]string, 0, len(run))
	for pkg := range run {
		pkgs = append(pkgs, pkg)
	}
	sort.Strings(pkgs)
	var out []rawFinding
	failed := map[string]string{}
	result := ast.StringTerm("result")
	for _, pkg := range pkgs {
		rs, err := ev.Run(planName(pkg))
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			failed[pkg] = err.Error()
			continue
		}
		for _, r := range rs {
			obj, ok := r.Value.(ast.Object)
			if !ok || obj.Get(result) == nil {
				return nil, nil, fmt.Errorf("rule package %s: plan result %v is not {\"result\": ...}", pkg, r)
			}
			v, err := ast.JSON(obj.Get(result).Value)
			if err != nil {
				return nil, nil, err
			}
			fs, err := decodeFindings(pkg, v)
			if err != nil {
				return nil, nil, err
			}
			out = append(out, fs...)
		}
	}
	return out, failed, nil
}
