package main

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
)

// rulesAhead loads the built-in rules and compiles the ones a snapshot will likely run while
// that snapshot is read, so that what follows the reading is the evaluation alone: on a
// sosreport of a few thousand files, loading and compiling the rules after the reading was as
// long as the reading (docs/performance.md, issue 14).
//
// As an archive streams by, each member kept to be read is Seen (a folder's files that a
// snapshot could read are listed before it is read: source.Options.Seen): the fact groups its
// path says it may feed (build.GroupsOf) are the guess, and the rules those groups can run are
// compiled on the second core while the decompressor runs on the first (or while the folder
// is read); a member that adds rules to the guess stops that compile (at OPA's next compiler
// stage) and starts one of the larger set. Once the snapshot is built, its Runnable rules are
// known exactly: the compile ahead is used when it holds all of them (what it holds more is
// never evaluated: the report is the same), else they are compiled then, as without it.
// Nothing else is parsed ahead (engine.Set.Warm):
// on a machine busy with other work, parsing every rule module costs more than the compile of
// the few a snapshot runs.
type rulesAhead struct {
	begin  func()        // starts loading the rules, once
	loaded chan struct{} // closed once set and err are
	set    *engine.Set
	err    error

	mu       sync.Mutex
	groups   map[string]bool // the groups the members seen so far may feed
	grew     chan struct{}   // a token when groups grew
	finished chan struct{}   // closed when the snapshot is read: nothing more to guess
	current  *compileAhead   // the last compile started, under mu
	timeout  time.Duration   // each engine's Timeout (--timeout)
}

// compileAhead is one compile of guessed rules.
type compileAhead struct {
	ids      []string // sorted
	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{} // closed once e and err are
	e        *engine.Engine
	err      error
}

// cancel stops the compile at its next stage; it may be called more than once.
func (c *compileAhead) cancel() { c.stopOnce.Do(func() { close(c.stop) }) }

// coalesce is how long the worker waits after a member added groups for the members that come
// with it (one plugin folder's commands stream by within microseconds), so as not to start a
// compile per member.
const coalesce = time.Millisecond

// newRulesAhead returns the rules ahead of a reading; ctx bounds the compiles, timeout each
// evaluation (engine.Engine.Timeout). The built-in
// rules are loaded from the reading's start (started, source.Options.Started), or once they
// are needed: loading them before xz-utils was started delayed it by 5-10 ms on a busy
// machine (the two cores taken by Load's parsers, its fork and exec waited).
func newRulesAhead(ctx context.Context, timeout time.Duration) *rulesAhead {
	a := &rulesAhead{loaded: make(chan struct{}), groups: map[string]bool{}, grew: make(chan struct{}, 1), finished: make(chan struct{}), timeout: timeout}
	a.begin = sync.OnceFunc(func() {
		go func() {
			a.set, a.err = engine.Load(engine.Builtin())
			close(a.loaded)
			if a.err == nil {
				a.work(ctx)
			}
		}()
	})
	return a
}

// started is source.Options.Started: the reading is under way, the rules load beside it.
func (a *rulesAhead) started() { a.begin() }

// seen is source.Options.Seen: member rel of the archive is kept to be read. It runs on the
// reading goroutine and never blocks.
func (a *rulesAhead) seen(rel string) {
	a.begin()
	gs := build.GroupsOf(rel)
	if len(gs) == 0 {
		return
	}
	a.mu.Lock()
	grew := false
	for _, g := range gs {
		if !a.groups[g] {
			a.groups[g], grew = true, true
		}
	}
	a.mu.Unlock()
	if grew {
		select {
		case a.grew <- struct{}{}:
		default:
		}
	}
}

// work starts a compile each time the guess grows past what the current one holds, until the
// reading ends.
func (a *rulesAhead) work(ctx context.Context) {
	for {
		select {
		case <-a.finished:
			return
		case <-a.grew:
			time.Sleep(coalesce)
			a.mu.Lock()
			groups := make([]string, 0, len(a.groups))
			for g := range a.groups {
				groups = append(groups, g)
			}
			cur := a.current
			a.mu.Unlock()
			ids := a.set.RunnableWith(groups)
			if len(ids) == 0 || cur != nil && holds(cur.ids, ids) {
				continue
			}
			next := &compileAhead{ids: ids, stop: make(chan struct{}), done: make(chan struct{})}
			a.mu.Lock()
			select {
			case <-a.finished: // engine decides with what it has
				a.mu.Unlock()
				return
			default:
			}
			a.current = next
			a.mu.Unlock()
			if cur != nil {
				cur.cancel()
			}
			go func() {
				defer close(next.done)
				next.e, next.err = a.prepare(ctx, engine.Options{SkipTypeCheck: true, Rules: next.ids, Stop: next.stop})
			}()
		}
	}
}

// holds reports whether sorted ids have every one of sorted want.
func holds(ids, want []string) bool {
	i := 0
	for _, w := range want {
		for i < len(ids) && ids[i] < w {
			i++
		}
		if i == len(ids) || ids[i] != w {
			return false
		}
	}
	return true
}

// ready returns the engine of the last compile ahead once it has ended without error; nil while
// it runs, or when none was started. A speculation evaluates with it (speculate.go).
func (a *rulesAhead) ready() *engine.Engine {
	a.mu.Lock()
	cur := a.current
	a.mu.Unlock()
	if cur == nil {
		return nil
	}
	select {
	case <-cur.done:
	default:
		return nil
	}
	if cur.err != nil {
		return nil
	}
	return cur.e
}

// wait returns the loaded rule set, once it is.
func (a *rulesAhead) wait() (*engine.Set, error) {
	a.begin()
	<-a.loaded
	return a.set, a.err
}

// finish ends the guessing: the snapshot is read (or could not be). No compile ahead starts
// after it; it returns the last one started, if any.
func (a *rulesAhead) finish() *compileAhead {
	a.mu.Lock()
	defer a.mu.Unlock()
	select {
	case <-a.finished:
	default:
		close(a.finished)
	}
	return a.current
}

// stop abandons what runs ahead (diagnose fails before it evaluates).
func (a *rulesAhead) stop() {
	if cur := a.finish(); cur != nil {
		cur.cancel()
	}
}

// engine returns the engine that diagnoses s: the compile ahead when it holds every rule that
// can run on s, else those rules compiled now (as loadedRules.engine does).
func (a *rulesAhead) engine(ctx context.Context, s *facts.Snapshot) (*engine.Engine, error) {
	cur := a.finish()
	if _, err := a.wait(); err != nil {
		return nil, err
	}
	ids := a.set.Runnable(s)
	if cur != nil && holds(cur.ids, ids) {
		<-cur.done
		if cur.err == nil && cur.e.Compiled(ids) {
			return cur.e, nil
		}
		if cur.err != nil && !errors.Is(cur.err, engine.ErrStopped) {
			return nil, cur.err
		}
	} else if cur != nil {
		cur.cancel()
	}
	return a.prepare(ctx, engine.Options{SkipTypeCheck: true, Rules: ids})
}

// prepare compiles the rules of opts into an engine with the evaluation timeout (set before any
// evaluation, a speculation's too, reads it).
func (a *rulesAhead) prepare(ctx context.Context, opts engine.Options) (*engine.Engine, error) {
	e, err := a.set.Prepare(ctx, opts)
	if err == nil {
		e.Timeout = a.timeout
	}
	return e, err
}
