package engine

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

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
// fails (a conflict error) is reported in failed, the others still run. The rules are
// independent, so they run on as many goroutines as there are CPUs (at most maxPlanWorkers),
// each with an evaluation of its own, taking the rules that look at the most facts first: a
// diagnosis waits for its slowest rule. Findings come in package order whatever ran where.
func (e *Engine) evalPlan(ctx context.Context, s *facts.Snapshot, run map[string]bool) ([]rawFinding, map[string]string, error) {
	pkgs := make([]string, 0, len(run))
	for pkg := range run {
		pkgs = append(pkgs, pkg)
	}
	sort.Strings(pkgs)
	sizes := groupSizes(s)
	hint := make(map[string]int, len(pkgs))
	for _, pkg := range pkgs {
		hint[pkg] = workHint(sizes, e.set.byPkg[pkg])
	}
	queue := append([]string(nil), pkgs...)
	sort.SliceStable(queue, func(i, j int) bool { return hint[queue[i]] > hint[queue[j]] })
	results := make(map[string]*planResult, len(pkgs))
	for _, pkg := range pkgs {
		results[pkg] = &planResult{}
	}
	workers := min(runtime.GOMAXPROCS(0), len(queue), maxPlanWorkers)
	evals := make([]*ireval.Eval, max(workers, 1))
	for w := range evals {
		ev, err := e.evaluation(ctx, s)
		if err != nil {
			return nil, nil, err
		}
		evals[w] = ev
		defer e.evals.Put(ev)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, ev := range evals {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(queue); i = int(next.Add(1)) - 1 {
				*results[queue[i]] = runPlan(ctx, ev, queue[i])
			}
		})
	}
	wg.Wait()
	var out []rawFinding
	failed := map[string]string{}
	for _, pkg := range pkgs {
		r := results[pkg]
		switch {
		case r.err != nil:
			return nil, nil, r.err
		case r.failed != "":
			failed[pkg] = r.failed
		}
		out = append(out, r.findings...)
	}
	return out, failed, nil
}

// evaluation returns an evaluation of s, reusing one of an earlier diagnosis when there is one.
func (e *Engine) evaluation(ctx context.Context, s *facts.Snapshot) (*ireval.Eval, error) {
	opts := ireval.Options{Shared: evidenceType}
	if ev, ok := e.evals.Get().(*ireval.Eval); ok {
		return ev, ev.Reset(ctx, s, e.planData, opts)
	}
	return e.prog.NewEval(ctx, s, e.planData, opts)
}

// maxPlanWorkers bounds the goroutines of one diagnosis: beyond a few, scheduling costs more
// than the rules left to share out.
const maxPlanWorkers = 4

// planResult is what one rule package's plan gave: findings, or why its evaluation failed (the
// rule is then skipped), or an error that fails the diagnosis.
type planResult struct {
	findings []rawFinding
	failed   string
	err      error
}

var resultKey = ast.StringTerm("result")

func runPlan(ctx context.Context, ev *ireval.Eval, pkg string) planResult {
	rs, err := ev.Run(planName(pkg))
	if err != nil {
		if ctx.Err() != nil {
			return planResult{err: ctx.Err()}
		}
		return planResult{failed: err.Error()}
	}
	var out planResult
	for _, r := range rs {
		obj, ok := r.Value.(ast.Object)
		if !ok || obj.Get(resultKey) == nil {
			return planResult{err: fmt.Errorf("rule package %s: plan result %v is not {\"result\": ...}", pkg, r)}
		}
		v, err := ast.JSON(obj.Get(resultKey).Value)
		if err != nil {
			return planResult{err: err}
		}
		fs, err := decodeFindings(pkg, v)
		if err != nil {
			return planResult{err: err}
		}
		out.findings = append(out.findings, fs...)
	}
	return out
}

// groupSizes counts the records of s that the costly fact groups hold.
func groupSizes(s *facts.Snapshot) map[string]int {
	ports, gids := 0, 0
	for _, d := range s.Devices {
		ports += len(d.Ports)
		for _, p := range d.Ports {
			gids += len(p.GIDs)
		}
	}
	sizes := map[string]int{"gids": gids, "irqs": len(s.IRQs), "irq_affinity": len(s.IRQs)}
	for _, g := range []string{"netdevs", "ethtool", "ethtool_driver", "ethtool_module", "ethtool_stats", "ethtool_pause", "ethtool_fec", "qos", "ecn"} {
		sizes[g] = len(s.Netdevs)
	}
	for _, g := range []string{"rdma_devices", "ib_ports", "port_counters", "hw_counters", "counter_deltas"} {
		sizes[g] = ports
	}
	return sizes
}

// workHint estimates how much of a snapshot rule r looks at: the records in the fact groups it
// requires (sizes from groupSizes, 1 for the others). It orders the work queue only; the report
// does not depend on it.
func workHint(sizes map[string]int, r *Rule) int {
	if r == nil {
		return 0
	}
	n := 0
	for _, g := range r.Requires {
		n += max(sizes[g], 1)
	}
	return n
}
