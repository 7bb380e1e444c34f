package main

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// startedAhead waits until a has started a compile of guessed rules (the worker waits for
// more members first: coalesce), or fails.
func startedAhead(t *testing.T, a *rulesAhead) *compileAhead {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		a.mu.Lock()
		cur := a.current
		a.mu.Unlock()
		if cur != nil {
			return cur
		}
	}
	t.Fatal("no compile was started ahead")
	return nil
}

// TestRulesAhead: the rules the paths seen can run are compiled ahead, and that compile is the
// engine of a snapshot whose runnable rules it holds; a snapshot that can run more (an input
// recognised by its content) gets its runnable rules compiled then, and so does one read
// without a member seen. Either engine evaluates the snapshot.
func TestRulesAhead(t *testing.T) {
	ctx := context.Background()
	ibstat := build.GroupsOf("sos_commands/infiniband/ibstat")
	lspci := build.GroupsOf("sos_commands/pci/lspci_-nnvv")
	if len(ibstat) == 0 || len(lspci) == 0 || slices.Equal(ibstat, lspci) {
		t.Fatalf("groups of ibstat %q, of lspci %q", ibstat, lspci)
	}
	for _, tc := range []struct {
		name      string
		seen      []string
		available []string
		ahead     bool
	}{
		{"guessed", []string{"sos_commands/infiniband/ibstat", "etc/hostname"}, ibstat, true},
		{"fewer than guessed", []string{"sos_commands/infiniband/ibstat", "sos_commands/pci/lspci_-nnvv"}, ibstat, true},
		{"more than guessed", []string{"sos_commands/infiniband/ibstat"}, append(slices.Clone(ibstat), lspci...), false},
		{"nothing seen", nil, ibstat, false},
	} {
		a := newRulesAhead(ctx, 0)
		for _, rel := range tc.seen {
			a.seen(rel)
		}
		var cur *compileAhead
		if tc.seen != nil {
			cur = startedAhead(t, a)
		}
		s := &facts.Snapshot{Available: tc.available}
		e, ev, err := a.engine(ctx, s, true)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		// Each compile was evaluated as it ended, and the report from those evaluations is
		// the engine's own.
		if ev == nil {
			t.Errorf("%s: no evaluation made beside the compiles", tc.name)
		} else {
			want, err := e.Diagnose(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.DiagnoseWith(ctx, s, ev)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(report.Report{})); diff != "" {
				t.Errorf("%s: report from the evaluations beside the compiles (-engine's +theirs):\n%s", tc.name, diff)
			}
		}
		if got := cur != nil && (e == cur.e || e == cur.joined); got != tc.ahead {
			t.Errorf("%s: engine compiled ahead = %v, want %v", tc.name, got, tc.ahead)
		}
		set, _ := a.wait()
		if !e.Compiled(set.Runnable(s)) {
			t.Errorf("%s: the engine does not hold the runnable rules", tc.name)
		}
		if _, err := e.Diagnose(ctx, s); err != nil {
			t.Errorf("%s: Diagnose: %v", tc.name, err)
		}
		// The rules every snapshot runs were compiled apart, as soon as they were loaded, and
		// the compile of guessed rules holds none of them.
		if a.base == nil || !slices.Equal(a.base.ids, set.RunnableWith(nil)) || !e.Compiled(a.base.ids) {
			t.Errorf("%s: base compile %+v", tc.name, a.base)
		}
		if cur != nil {
			for _, id := range cur.ids {
				if slices.Contains(a.base.ids, id) {
					t.Errorf("%s: %s compiled in base and again in the guess", tc.name, id)
				}
			}
			if r := a.ready(); tc.ahead && r != e {
				t.Errorf("%s: ready() is not the engine of the snapshot", tc.name)
			}
		}
	}
}

func TestHolds(t *testing.T) {
	for _, tc := range []struct {
		ids, want []string
		ok        bool
	}{
		{[]string{"a", "b", "c"}, []string{"a", "c"}, true},
		{[]string{"a", "c"}, []string{"a", "b"}, false},
		{[]string{"a"}, nil, true},
		{nil, []string{"a"}, false},
		{[]string{"b"}, []string{"a"}, false},
	} {
		if got := holds(tc.ids, tc.want); got != tc.ok {
			t.Errorf("holds(%q, %q) = %v", tc.ids, tc.want, got)
		}
	}
}

// TestReadyWaitsForAnInput: before any member an input feeds was seen there is nothing to
// evaluate ahead (ready is nil, though the rules every snapshot runs are compiled); once one
// was seen and its rules compiled, ready is the engine of the two compiles.
func TestReadyWaitsForAnInput(t *testing.T) {
	ctx := context.Background()
	a := newRulesAhead(ctx, 0)
	defer a.stop()
	a.started()
	set, err := a.wait()
	if err != nil {
		t.Fatal(err)
	}
	<-a.base.done
	if e := a.ready(); e != nil {
		t.Error("ready before any input was seen")
	}
	a.seen("sos_commands/infiniband/ibstat")
	var e *engine.Engine
	for deadline := time.Now().Add(30 * time.Second); e == nil && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		e = a.ready()
	}
	if e == nil {
		t.Fatal("not ready after ibstat was seen")
	}
	if !e.Compiled(set.RunnableWith(build.GroupsOf("sos_commands/infiniband/ibstat"))) {
		t.Error("the engine ready lacks a rule ibstat can run")
	}
}

// TestEarlyEvaluationWithinTimeout: with a --timeout too short for any rule, the evaluation
// compile by compile reports every rule that can run as timed out (the report incomplete), and
// none of them as evaluated without findings.
func TestEarlyEvaluationWithinTimeout(t *testing.T) {
	ctx := context.Background()
	a := newRulesAhead(ctx, time.Nanosecond)
	defer a.stop()
	s := &facts.Snapshot{Available: build.GroupsOf("sos_commands/infiniband/ibstat")}
	e, ev, err := a.engine(ctx, s, true)
	if err != nil {
		t.Fatal(err)
	}
	if ev == nil {
		t.Fatal("no evaluation made beside the compiles")
	}
	r, err := e.DiagnoseWith(ctx, s, ev)
	if err != nil {
		t.Fatal(err)
	}
	set, _ := a.wait()
	runnable := set.Runnable(s)
	failed := 0
	for _, sk := range r.Skipped {
		if sk.Failed && strings.Contains(sk.Reason, "timed out") {
			failed++
		}
	}
	if failed != len(runnable) || r.Evaluated != 0 || r.Complete {
		t.Errorf("%d of %d runnable rules timed out, %d evaluated, complete %v: want all timed out, the report incomplete", failed, len(runnable), r.Evaluated, r.Complete)
	}
}
