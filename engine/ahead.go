package engine

import (
	"context"
	"reflect"

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
}

// Evaluate starts evaluating the rules e can run on s, in a goroutine, and returns at once. ctx
// (and Timeout) bound it; s must not change while it runs. An evaluation DiagnoseWith does not
// take should be cancelled (Cancel) so as not to run on for nothing.
func (e *Engine) Evaluate(ctx context.Context, s *facts.Snapshot) *Evaluation {
	ctx, cancel := context.WithCancel(ctx)
	ev := &Evaluation{engine: e, input: ruleInput(s), cancel: cancel, done: make(chan struct{})}
	run := e.runnable(availableGroups(s))
	go func() {
		defer close(ev.done)
		defer cancel()
		ev.findings, ev.failed, ev.err = e.evaluate(ctx, s, run)
	}()
	return ev
}

// Cancel stops the evaluation, if it still runs. A nil Evaluation is none.
func (ev *Evaluation) Cancel() {
	if ev != nil {
		ev.cancel()
	}
}

// takes reports whether DiagnoseWith of s on e may use ev instead of evaluating: ev was made by
// e, the rules see the same input in s as in the snapshot ev evaluated, and, once it ended, it
// failed nowhere (a rule timed out or raised an error: evaluated again, as without ev). It waits
// for ev to end when it is the same input.
func (ev *Evaluation) takes(e *Engine, s *facts.Snapshot) bool {
	if ev == nil || ev.engine != e || !reflect.DeepEqual(ev.input, ruleInput(s)) {
		return false
	}
	<-ev.done
	return ev.err == nil && len(ev.failed) == 0
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
