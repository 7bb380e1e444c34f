package live

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestRunPoolNamesBlockedRead: a copy still reading at the gather's deadline is recorded under
// its task's name with the file whose read blocked; a copy that had not started says so.
func TestRunPoolNamesBlockedRead(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	started := make(chan struct{})
	tasks := []task{
		copyTask(HostFiles, false, func(c *copied) {
			rel := "proc/interrupts"
			c.reading.Store(&rel)
			close(started)
			<-block // a read stuck in the kernel
		}),
		copyTask("sys/class/net/eth0", false, func(c *copied) {}),
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-started; cancel() }()
	meta := &Meta{}
	runPool(ctx, Options{Jobs: 1}, tasks, fstest.MapFS{}, meta)
	want := []Unreadable{
		{Path: HostFiles, Error: Abandoned + " while reading proc/interrupts (the read blocked)"},
		{Path: "sys/class/net/eth0", Error: "not started: the gather deadline had passed"},
	}
	if diff := cmp.Diff(want, meta.Unreadable); diff != "" {
		t.Errorf("unreadable (-want +got):\n%s", diff)
	}
}

// lateCtx is a context whose deadline passes just after exec first looks at it: Err is nil on
// the first call, Canceled after, and Done is closed from the start.
type lateCtx struct {
	context.Context
	calls atomic.Int32
	done  chan struct{}
}

func (c *lateCtx) Done() <-chan struct{} { return c.done }
func (c *lateCtx) Err() error {
	if c.calls.Add(1) == 1 {
		return nil
	}
	return context.Canceled
}

// TestExecDeadlineBeforeStart: a gather deadline that passes between exec's check and the
// command's start (exec.Cmd refuses a done context) is "not started", as when it passed
// before, never "could not be started" (an error source, which made diagnose exit 2 at random).
func TestExecDeadlineBeforeStart(t *testing.T) {
	ctx := &lateCtx{Context: context.Background(), done: make(chan struct{})}
	close(ctx.done)
	r := &runner{timeout: time.Second}
	res := r.exec(ctx, "/bin/true", []string{"true"})
	if res.Status != RanNotRun || res.Error != "not started: the gather deadline had passed" {
		t.Errorf("exec at the deadline: %s %q, want %s", res.Status, res.Error, RanNotRun)
	}
}
