package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"weak"
)

// TestWithinHeld: the fleet rules run with the soft memory limit at what the runtime holds
// when they start (never below the heap in use), and the limit is restored after them.
func TestWithinHeld(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "") // the test binary's own environment must not decide
	prev := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(prev)
	var during int64
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	withinHeld(func() {
		during = debug.SetMemoryLimit(-1)
		metrics.Read(s)
	})
	if during == math.MaxInt64 || during < int64(s[0].Value.Uint64()) {
		t.Errorf("limit during the fleet rules = %d, want what the runtime held (at least the %d bytes of heap objects)", during, s[0].Value.Uint64())
	}
	if after := debug.SetMemoryLimit(-1); after != math.MaxInt64 {
		t.Errorf("limit after = %d, want it restored (no limit)", after)
	}

	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(1 << 30)
	withinHeld(func() { during = debug.SetMemoryLimit(-1) })
	if during != 1<<30 {
		t.Errorf("with GOMEMLIMIT set, the limit during the fleet rules = %d, want the user's 1 GiB", during)
	}
}

// TestCollectWorkingSet: what the fleet rules left in a sync.Pool is freed before the report is
// written (one collection only moves it to the pool's victim cache).
func TestCollectWorkingSet(t *testing.T) {
	var pool sync.Pool
	buf := &[1 << 16]byte{}
	w := weak.Make(buf)
	pool.Put(buf)
	buf = nil
	collectWorkingSet()
	if w.Value() != nil {
		t.Error("a pooled buffer of the fleet rules survived collectWorkingSet")
	}
	runtime.KeepAlive(&pool)
}
