package engine

import (
	"context"
	"reflect"
	"slices"
	"sort"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Evaluation is the rules' evaluation on one snapshot, run ahead of the report that may use it
// (Evaluate, DiagnoseWith). diagnose evaluates the snapshot of an archive read so far while the
// rest of it streams by, nothing more being kept: when the archive ends, the report of the
// snapshot read whole takes this evaluation instead of evaluating again, if the rules would
// see the same input (docs/performance.md, issue 14).
type Evaluation struct {
	engine *Engine
	input  *facts.Snapshot // ruleInput of the snapshot evaluated
	cancel context.CancelFunc
	done   chan struct{} // closed once findings, failed and err are set
	// What findings returned.
	findings []rawFinding
	failed   map[string]string
	err      error
	// whole is set on an evaluation of the snapshot the report is of, made after its reading
	// (Combine): DiagnoseWith takes it even where a rule failed (timed out, raised an error),
	// as the evaluation it would make itself; evaluating again would spend the --timeout twice.
	whole bool
}

// Evaluate starts evaluating the rules e can run on s, in a goroutine, and returns at once. ctx
// (and Timeout) bound it; s must not change while it runs. An evaluation DiagnoseWith does not
// take should be cancelled (Cancel) so as not to run on for nothing.
func (e *Engine) Evaluate(ctx context.Context, s *facts.Snapshot) *Evaluation {
	return e.EvaluateInput(ctx, NewInput(s))
}

// EvaluateInput is Evaluate of in's snapshot, with the rules' input converted once for every
// evaluation given in (diagnose evaluates each compile of the rules as soon as it ends:
// Combine).
func (e *Engine) EvaluateInput(ctx context.Context, in *Input) *Evaluation {
	ctx, cancel := context.WithCancel(ctx)
	ev := &Evaluation{engine: e, input: in.rules, cancel: cancel, done: make(chan struct{})}
	run := e.runnable(availableGroups(in.snap))
	go func() {
		defer close(ev.done)
		defer cancel()
		ev.findings, ev.failed, ev.err = e.evaluate(ctx, in, run)
	}()
	return ev
}

// Combine returns the evaluation by e, an engine Join made of parts, of the snapshot that the
// evaluations parts made, one by each part on the same Input, evaluated: each rule package's
// findings (or failure) are those of the part e evaluates it in (the first unit that holds it:
// a package two parts hold through an import counts once), in the order e's own evaluation
// gives them, so DiagnoseWith makes the same report from it. It is taken with the rules that
// failed in it (whole): it is the evaluation of that snapshot, within the caller's deadline
// (diagnose gives the parts one --timeout), and evaluating again would spend the time twice.
// It ends when the last part does; Cancel cancels every part. Errors: a part's, once it has
// ended.
func Combine(e *Engine, parts ...*Evaluation) *Evaluation {
	ev := &Evaluation{engine: e, input: parts[0].input, done: make(chan struct{}), whole: true}
	ev.cancel = func() {
		for _, p := range parts {
			p.Cancel()
		}
	}
	go func() {
		defer close(ev.done)
		for _, p := range parts {
			<-p.done
			if p.err != nil {
				ev.err = p.err
				continue
			}
			own := func(pkg string) bool {
				u := e.unitOf(pkg)
				return u != nil && slices.Contains(p.engine.units, u)
			}
			for _, f := range p.findings {
				if own(f.pkg) {
					ev.findings = append(ev.findings, f)
				}
			}
			for pkg, why := range p.failed {
				if own(pkg) {
					if ev.failed == nil {
						ev.failed = map[string]string{}
					}
					ev.failed[pkg] = why
				}
			}
		}
		// A unit's packages come in package order (evalUnits), and so do e's across units.
		sort.SliceStable(ev.findings, func(i, j int) bool { return ev.findings[i].pkg < ev.findings[j].pkg })
	}()
	return ev
}

// Input is what the rules are given of a snapshot (ruleInput) as OPA's input value, converted
// once (4 ms for the corpus's largest snapshot) for the evaluations that share it.
type Input struct {
	snap  *facts.Snapshot
	rules *facts.Snapshot // ruleInput(snap)
	once  sync.Once
	value ast.Value
	err   error
}

// NewInput returns the input of s, converted when first needed (Value); s must not change
// after.
func NewInput(s *facts.Snapshot) *Input { return &Input{snap: s, rules: ruleInput(s)} }

// Value returns the converted input, converting it on the first call; it is safe for
// concurrent use. Errors: a fact OPA's value cannot hold.
func (in *Input) Value() (ast.Value, error) {
	in.once.Do(func() { in.value, in.err = inputValue(in.rules) })
	return in.value, in.err
}

// Cancel stops the evaluation, if it still runs. A nil Evaluation is none.
func (ev *Evaluation) Cancel() {
	if ev != nil {
		ev.cancel()
	}
}

// takes reports whether DiagnoseWith of s on e may use ev instead of evaluating: ev was made by
// e, the rules see the same input in s as in the snapshot ev evaluated, and, once it ended, it
// failed nowhere (a rule timed out or raised an error: evaluated again, as without ev), unless
// ev is whole (Combine). It waits for ev to end when it is the same input.
func (ev *Evaluation) takes(e *Engine, s *facts.Snapshot) bool {
	if ev == nil || ev.engine != e || !reflect.DeepEqual(ev.input, ruleInput(s)) {
		return false
	}
	<-ev.done
	return ev.err == nil && (ev.whole || len(ev.failed) == 0)
}

// ruleInput is what the rules are given of s: s without the sources no parser recognised (the
// files nothing read, and the count of a sosreport's files not relevant to RDMA). They say
// nothing a rule can judge, and the count grows as an archive streams by while what is read
// stays the same. The report lists them (Diagnose keeps s.Sources whole).
func ruleInput(s *facts.Snapshot) *facts.Snapshot {
	in := *s
	in.Sources = make([]facts.Source, 0, len(s.Sources))
	for _, src := range s.Sources {
		if src.Status != facts.StatusUnrecognized {
			in.Sources = append(in.Sources, src)
		}
	}
	return &in
}

// Done is closed once the evaluation has ended.
func (ev *Evaluation) Done() <-chan struct{} { return ev.done }
