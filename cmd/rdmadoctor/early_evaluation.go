package main

import (
	"context"
	"slices"
	"sync"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
)

// earlyEvaluation is the evaluation of a snapshot compile by compile, each as soon as it ends
// (rulesAhead.engine, with evaluate set); nil is none.
type earlyEvaluation struct {
	in *engine.Input
	// within is the context of both parts: one --timeout from the first part's start, so that
	// the two, side by side, take no longer than one evaluation of them all may (engine's
	// Timeout bounds each part too).
	within  func() context.Context
	stop    context.CancelFunc
	mu      sync.Mutex
	parts   map[*compileAhead]*engine.Evaluation // by compile, once it ended holding its rules
	pending sync.WaitGroup                       // the goroutines waiting for a compile
}

// evaluateEarly evaluates s with base's compile and second's (one that holds rest, or nil), each
// as soon as it ends, on one input converted beside them, both within one --timeout.
func (a *rulesAhead) evaluateEarly(ctx context.Context, s *facts.Snapshot, second *compileAhead, rest []string) *earlyEvaluation {
	early := &earlyEvaluation{in: engine.NewInput(s), parts: map[*compileAhead]*engine.Evaluation{}}
	ctx, early.stop = context.WithCancel(ctx)
	early.within = sync.OnceValue(func() context.Context {
		if a.timeout <= 0 {
			return ctx
		}
		within, cancel := context.WithTimeout(ctx, a.timeout)
		context.AfterFunc(ctx, cancel)
		return within
	})
	go early.in.Value() // converted while the rules compile
	for _, c := range []*compileAhead{a.base, second} {
		if c == nil {
			continue
		}
		want := c.ids
		if c == second {
			want = rest
		}
		early.pending.Add(1)
		go func() {
			defer early.pending.Done()
			<-c.done
			if c.err == nil && c.e.Compiled(want) {
				ev := c.e.EvaluateInput(early.within(), early.in)
				early.mu.Lock()
				early.parts[c] = ev
				early.mu.Unlock()
			}
		}()
	}
	return early
}

// combine returns the evaluation by e, the engine made of the compiles from, of the parts
// evaluated (engine.Combine), when each of those compiles was evaluated; else nil. The parts
// not taken are cancelled.
func (early *earlyEvaluation) combine(e *engine.Engine, from ...*compileAhead) *engine.Evaluation {
	if early == nil {
		return nil
	}
	early.pending.Wait()
	var parts []*engine.Evaluation
	for _, c := range from {
		if ev := early.parts[c]; ev != nil {
			parts = append(parts, ev)
		}
	}
	if e == nil || len(parts) != len(from) {
		parts = nil
	}
	for c, ev := range early.parts {
		if !slices.Contains(from, c) || parts == nil {
			ev.Cancel()
		}
	}
	if parts == nil {
		early.stop()
		return nil
	}
	ev := engine.Combine(e, parts...)
	go func() {
		<-ev.Done()
		early.stop()
	}()
	return ev
}
