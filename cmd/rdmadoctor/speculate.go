package main

import (
	"context"
	"io/fs"
	"sync"
	"sync/atomic"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/diagnosis"
)

// speculation evaluates, while an archive streams by, the snapshot of what it has kept so far,
// once the stream has gone on for a while without keeping anything more (source.Options.Settled):
// in a sosreport the RDMA captures are a few folders among thousands of files, and their
// evaluation then runs while the decompressor does, not after it. The report takes it when
// the snapshot read whole gives the rules the same input (engine.DiagnoseWith), and otherwise
// evaluates as without it: the report is the same either way (docs/performance.md, issue 14).
//
// A speculation uses the compile ahead (rules_ahead.go) once that has ended and holds every
// rule the snapshot so far can run; there is one at a time, at most maxSpeculations per
// reading.
type speculation struct {
	ctx     context.Context
	cancel  context.CancelFunc
	ahead   *rulesAhead
	profile *facts.Profile

	tries int         // views taken; the reading goroutine's
	busy  atomic.Bool // a speculation builds or evaluates
	mu    sync.Mutex
	last  *specRun // the last speculation started, under mu
}

// specRun is one speculation: the snapshot of a view, built and evaluated.
type specRun struct {
	built chan struct{} // closed once ev is set, or the view gave nothing to evaluate
	ev    *engine.Evaluation
}

// maxSpeculations bounds the views evaluated during one reading: each one a kept member made
// stale cost an evaluation for nothing.
const maxSpeculations = 3

func newSpeculation(ctx context.Context, ahead *rulesAhead, profile *facts.Profile) *speculation {
	ctx, cancel := context.WithCancel(ctx)
	return &speculation{ctx: ctx, cancel: cancel, ahead: ahead, profile: profile}
}

// settled is source.Options.Settled: it takes the view and evaluates it on another goroutine
// when the compile ahead is ready and no speculation runs. It never blocks.
func (p *speculation) settled(view func() (fs.FS, facts.SourceInfo, bool)) {
	if p.tries >= maxSpeculations || p.busy.Load() {
		return
	}
	e := p.ahead.ready()
	if e == nil {
		return
	}
	fsys, info, ok := view()
	if !ok {
		return
	}
	p.tries++
	p.busy.Store(true)
	run := &specRun{built: make(chan struct{})}
	p.mu.Lock()
	p.last = run
	p.mu.Unlock()
	go func() {
		defer p.busy.Store(false)
		ev := p.evaluate(e, fsys, info)
		run.ev = ev
		close(run.built)
		if ev != nil {
			<-ev.Done()
		}
	}()
}

// evaluate builds the snapshot of the view as loadSnapshotWith does and starts its evaluation
// with e; nil when it cannot be built or e lacks a rule it can run.
func (p *speculation) evaluate(e *engine.Engine, fsys fs.FS, info facts.SourceInfo) *engine.Evaluation {
	s, err := diagnosis.Build(fsys, info)
	if err != nil {
		return nil
	}
	s.Profile = p.profile
	if !e.Compiled(e.Set().Runnable(s)) {
		return nil
	}
	return e.Evaluate(p.ctx, s)
}

// evaluation returns the last speculation's evaluation, once its snapshot is built (nil: none),
// for the report of the snapshot read whole; the reading has ended.
func (p *speculation) evaluation() *engine.Evaluation {
	p.mu.Lock()
	run := p.last
	p.mu.Unlock()
	if run == nil {
		return nil
	}
	<-run.built
	return run.ev
}

// stop cancels what still runs (diagnose ends).
func (p *speculation) stop() { p.cancel() }
