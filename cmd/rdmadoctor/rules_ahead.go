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

	// base compiles the rules every snapshot runs (no fact group needed: RunnableWith none) as
	// soon as the rules are loaded, while the archive's first members stream by; the compiles
	// of guessed rules hold the others only, and the engine of a snapshot is the two joined
	// (engine.Join): the compile that waits for the snapshot's inputs is the smaller. Set
	// before loaded is closed; nil when none run on every snapshot.
	base *compileAhead

	mu       sync.Mutex
	groups   map[string]bool // the groups the members seen so far may feed
	grew     chan struct{}   // a token when groups grew
	finished chan struct{}   // closed when the snapshot is read: nothing more to guess
	current  *compileAhead   // the last compile started, under mu
	timeout  time.Duration   // each engine's Timeout (--timeout)
	// guessed counts the times groups grew, decided the count work last acted on, under mu:
	// while they differ, a compile of the new guess may be about to start, and ready says
	// nothing is.
	guessed, decided int
}

// compileAhead is one compile of guessed rules.
type compileAhead struct {
	ids      []string // sorted
	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{} // closed once e and err are
	e        *engine.Engine
	err      error

	joinOnce sync.Once // the engine of base and this compile, made once (joined)
	joined   *engine.Engine
}

// startCompile starts compiling ids (sorted) on a goroutine of its own.
func (a *rulesAhead) startCompile(ctx context.Context, ids []string) *compileAhead {
	c := &compileAhead{ids: ids, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		c.e, c.err = a.prepare(ctx, engine.Options{SkipTypeCheck: true, Rules: c.ids, Stop: c.stop})
	}()
	return c
}

// withBase returns the engine of base's rules and c's: c's engine when there is no base, one
// joined engine, the same on every call (a speculation's evaluation is taken by the engine it
// was made with). Both compiles have ended without error.
func (a *rulesAhead) withBase(c *compileAhead) (*engine.Engine, error) {
	if a.base == nil {
		return c.e, nil
	}
	var err error
	c.joinOnce.Do(func() { c.joined, err = engine.Join(a.base.e, c.e) })
	return c.joined, err
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
			if a.err == nil {
				if ids := a.set.RunnableWith(nil); len(ids) > 0 {
					a.base = a.startCompile(ctx, ids)
				}
			}
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
	if grew {
		a.guessed++
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
			cur, guessed := a.current, a.guessed
			a.mu.Unlock()
			ids := a.beyondBase(a.set.RunnableWith(groups))
			if len(ids) == 0 || cur != nil && holds(cur.ids, ids) {
				a.mu.Lock()
				a.decided = guessed
				a.mu.Unlock()
				continue
			}
			a.mu.Lock()
			select {
			case <-a.finished: // engine decides with what it has
				a.mu.Unlock()
				return
			default:
			}
			a.current, a.decided = a.startCompile(ctx, ids), guessed
			a.mu.Unlock()
			if cur != nil {
				cur.cancel()
			}
		}
	}
}

// beyondBase returns the rules of sorted ids that base does not compile.
func (a *rulesAhead) beyondBase(ids []string) []string {
	if a.base == nil {
		return ids
	}
	var out []string
	for _, id := range ids {
		if !holds(a.base.ids, []string{id}) {
			out = append(out, id)
		}
	}
	return out
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

// ready returns the engine of the compiles ahead (base's and the last one started) once they
// have ended without error and the guess is settled; nil while one runs, while a member seen
// may start another, before any member an input feeds was seen (a snapshot without one has
// nothing to evaluate ahead), or when none was started. A speculation evaluates with it
// (speculate.go).
func (a *rulesAhead) ready() *engine.Engine {
	select {
	case <-a.loaded:
	default:
		return nil
	}
	if a.base != nil && !ended(a.base) {
		return nil
	}
	a.mu.Lock()
	cur, seen, settled := a.current, len(a.groups) > 0, a.guessed == a.decided
	a.mu.Unlock()
	if !seen || !settled {
		return nil // nothing an input feeds was seen yet, or its compile is about to start
	}
	if cur == nil {
		if a.base == nil {
			return nil
		}
		return a.base.e
	}
	if !ended(cur) {
		return nil
	}
	e, err := a.withBase(cur)
	if err != nil {
		return nil
	}
	return e
}

// ended reports whether c has ended without error.
func ended(c *compileAhead) bool {
	select {
	case <-c.done:
		return c.err == nil
	default:
		return false
	}
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
	select {
	case <-a.loaded:
		if a.base != nil {
			a.base.cancel()
		}
	default:
	}
}

// engine returns the engine that diagnoses s: the compiles ahead when they hold every rule that
// can run on s (base's, joined with the last compile of guessed rules when s runs more), else
// the rules base lacks compiled now and joined with it, as loadedRules.engine compiles them.
// That compile starts at once, beside base's if it still runs: a snapshot read before the
// rules were loaded (a corpus case, a small archive) had its rules compiled after base's, one
// after the other on a single core (0.02 s more for the benchmark's 0-member archive:
// docs/performance.md, issue 14). An error of base's compile is the one returned, as when one
// followed the other.
//
// With evaluate set (no evaluation was made ahead: speculate.go), each compile's rules are
// evaluated on s as soon as that compile ends, beside the other's, on one input converted
// while they compile; the evaluation returned is theirs put together (engine.Combine), the one
// the engine would make. Else it is nil.
func (a *rulesAhead) engine(ctx context.Context, s *facts.Snapshot, evaluate bool) (*engine.Engine, *engine.Evaluation, error) {
	cur := a.finish()
	if _, err := a.wait(); err != nil {
		return nil, nil, err
	}
	rest := a.beyondBase(a.set.Runnable(s))
	var now *compileAhead // rest compiled now, beside base
	switch {
	case len(rest) == 0 && a.base != nil:
		if cur != nil {
			cur.cancel()
		}
		cur = nil
	case cur != nil && holds(cur.ids, rest):
	default:
		if cur != nil {
			cur.cancel()
		}
		cur, now = nil, a.startCompile(ctx, rest)
	}
	second := now
	if second == nil {
		second = cur
	}
	var early *earlyEvaluation
	if evaluate {
		early = a.evaluateEarly(ctx, s, second, rest)
	}
	e, from, err := a.join(ctx, cur, now, rest)
	if err != nil {
		early.combine(nil)
		return nil, nil, err
	}
	return e, early.combine(e, from...), nil
}

// join waits for the compiles of engine and returns their engine and the compiles it was made
// of.
func (a *rulesAhead) join(ctx context.Context, cur, now *compileAhead, rest []string) (*engine.Engine, []*compileAhead, error) {
	var from []*compileAhead
	if base := a.base; base != nil {
		<-base.done
		if base.err != nil { // the same error a compile of all of them would meet
			if now != nil {
				now.cancel()
			}
			return nil, nil, base.err
		}
		if len(rest) == 0 {
			return base.e, []*compileAhead{base}, nil
		}
		from = append(from, base)
	}
	if cur != nil {
		<-cur.done
		if cur.err == nil && cur.e.Compiled(rest) {
			e, err := a.withBase(cur)
			return e, append(from, cur), err
		}
		if cur.err != nil && !errors.Is(cur.err, engine.ErrStopped) {
			return nil, nil, cur.err
		}
		now = a.startCompile(ctx, rest) // stopped, or short of a rule: compile them now
	}
	<-now.done
	if now.err != nil {
		return nil, nil, now.err
	}
	e, err := a.withBase(now)
	return e, append(from, now), err
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
