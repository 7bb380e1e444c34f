package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
	"weak"
)

func TestFleetMemoryLimit(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int64
	}{
		{0, fleetMemoryFloor},
		{fleetMemoryFloor / 2, fleetMemoryFloor},
		{fleetMemoryFloor, 2 * fleetMemoryFloor}, // never below twice the live heap
		{math.MaxUint64, math.MaxInt64 - 1},
	} {
		if got := fleetMemoryLimit(tc.live); got != tc.want {
			t.Errorf("fleetMemoryLimit(%d) = %d, want %d", tc.live, got, tc.want)
		}
	}
}

// TestPaceFleetMemory holds live data above half the floor and checks that a collection moves
// the soft limit to twice the live heap, that withinHeld's own limit is left alone, and that
// stop lifts the limit.
func TestPaceFleetMemory(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	stop := paceFleetMemory()
	if got := debug.SetMemoryLimit(-1); got != fleetMemoryFloor {
		t.Fatalf("limit at start = %d, want the floor %d", got, fleetMemoryFloor)
	}
	live := make([]byte, fleetMemoryFloor) // twice: 2 x live > the floor
	for i := range live {
		live[i] = byte(i)
	}
	limit := waitLimit(t, func(l int64) bool { return l >= 2*fleetMemoryFloor })
	if limit < 2*int64(len(live)) {
		t.Errorf("limit after a collection = %d, want at least %d (twice the live heap)", limit, 2*len(live))
	}
	runtime.KeepAlive(live)

	withinHeld(func() {
		held := debug.SetMemoryLimit(-1)
		runtime.GC()
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // the finalizer goroutine
		if got := debug.SetMemoryLimit(-1); got != held {
			t.Errorf("limit within withinHeld = %d after collections, want its own %d", got, held)
		}
	})
	stop()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit after stop = %d, want none", got)
	}
}

// waitLimit runs collections until ok holds of the soft memory limit (the pacer sets it from a
// finalizer, after the collection), for at most a few seconds.
func waitLimit(t *testing.T, ok func(int64) bool) int64 {
	t.Helper()
	var l int64
	for range 200 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		if l = debug.SetMemoryLimit(-1); ok(l) {
			return l
		}
	}
	t.Fatalf("soft memory limit still %d after 200 collections", l)
	return l
}

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
