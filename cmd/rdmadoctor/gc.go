package main

import (
	"math"
	"runtime"
	"runtime/debug"
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
