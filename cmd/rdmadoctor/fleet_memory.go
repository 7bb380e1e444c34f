package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// fleetMemoryFloor is the soft memory limit (debug.SetMemoryLimit) a fleet run is held to while
// its live heap is under half of it. At Go's pace (GOGC 100) the heap grows to twice the live
// data before each collection; a fleet's live data grows with its nodes (their reports,
// summaries and fabric share), so the 10,000-node bench fleet peaked at 145 MiB against 80 MiB
// for 100 nodes. Held to 88 MiB while it lives in less than 44, it peaked at 112 MiB for ~6% more
// CPU (65 s user instead of 61 s at 96 MiB, where it peaked at 119 MiB) (docs/performance.md, issue 12).
const fleetMemoryFloor = 88 << 20

// heldByRules is set while withinHeld holds the runtime to a limit of its own, which the pacer
// then leaves alone.
var heldByRules atomic.Bool

// paceFleetMemory sets the soft memory limit to max(fleetMemoryFloor, twice the live heap) and
// sets it again after every garbage collection, until stop is called (which lifts the limit).
// Never below twice the live heap: a fleet whose live data outgrows the floor is collected at
// Go's own pace, never driven into back-to-back collections. A limit set with GOMEMLIMIT is
// kept, and nothing is paced.
func paceFleetMemory() (stop func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	var stopped atomic.Bool
	var arm func()
	arm = func() {
		s := &floorSentinel{}
		// The finalizer runs after the collection that found s unreachable: the next one.
		runtime.SetFinalizer(s, func(*floorSentinel) {
			if stopped.Load() {
				return
			}
			if !heldByRules.Load() {
				debug.SetMemoryLimit(fleetMemoryLimit(liveHeap()))
			}
			arm()
		})
	}
	debug.SetMemoryLimit(fleetMemoryFloor)
	arm()
	return func() {
		stopped.Store(true)
		debug.SetMemoryLimit(math.MaxInt64)
	}
}

// fleetMemoryLimit is the soft limit for a live heap of live bytes: fleetMemoryFloor, or twice
// live when that is more.
func fleetMemoryLimit(live uint64) int64 {
	return max(fleetMemoryFloor, 2*int64(min(live, math.MaxInt64/2)))
}

// liveHeap is the heap the last collection marked live, in bytes (/gc/heap/live:bytes).
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
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
