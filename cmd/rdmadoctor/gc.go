package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// gcFloor is the heap below which diagnose does not collect: the whole run of a snapshot that
// holds little (loading the rules, compiling those that can run, one evaluation) allocates about
// 40 MiB, which four collections at GOGC 200 went through, a fifth of its CPU time while the
// decompressor needs the other core (docs/performance.md, issue 14).
const gcFloor = 64 << 20

// collectFromFloor turns the collector off until the memory the Go runtime holds reaches
// gcFloor (debug.SetMemoryLimit), then back to GOGC 200 without a limit, the pace main sets:
// a run that holds more than the floor (large captures, a snapshot of thousands of files) is
// collected as before, past the floor, and never held to it.
func collectFromFloor() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcFloor)
	// The first collection, the one the limit triggers, finalizes s: from then on, GOGC 200.
	s := &floorSentinel{}
	runtime.SetFinalizer(s, func(*floorSentinel) {
		debug.SetGCPercent(200)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}

// floorSentinel is large enough, and has a pointer, so as not to be a tiny allocation, whose
// finalizer may never run.
type floorSentinel struct {
	_ *int
	_ [16]byte
}

// withinHeld runs fn with the Go runtime's memory held to what it holds when fn starts
// (debug.SetMemoryLimit, a soft limit: past it the collector runs more often, never more than
// half the CPU, and the heap still grows if fn's live data needs it), then restores the limit.
// The fleet rules run on the fleet document at once, after every node was diagnosed: at Go's
// pace the heap could grow to twice their live data, above what the node phase took (10,000
// nodes: 190 instead of 130 MiB, docs/performance.md), for a few seconds of evaluation. A limit
// set with GOMEMLIMIT is kept.
func withinHeld(fn func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		fn()
		return
	}
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	held := s[0].Value.Uint64() - s[1].Value.Uint64()
	heldByRules.Store(true) // the fleet pacer (fleet_memory.go) leaves this limit alone
	prev := debug.SetMemoryLimit(int64(held))
	defer func() {
		debug.SetMemoryLimit(prev)
		heldByRules.Store(false)
	}()
	fn()
}

// collectWorkingSet runs two garbage collections between the fleet rules and the report
// writers. The fleet rules' working set (the fleet document as OPA terms, each rule's values)
// is garbage once they return, but the collector's next goal is still twice the live heap it
// last saw during them: at 10,000 nodes the report writers grew the heap from 59 to 104 MB
// before the next collection, the run's peak (docs/performance.md). The second collection
// frees what the first only moved to the sync.Pools' victim caches (OPA's evaluation pools):
// after one the live heap was 52 MB, after two 24 MB, and the goal is twice what the report
// needs (the nodes' reports and summaries, the fabric view), for ~0.1 s of CPU.
func collectWorkingSet() {
	runtime.GC()
	runtime.GC()
}
