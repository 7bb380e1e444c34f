package xzutils

import (
	"os"
	"syscall"
)

// YieldNice is how much nicer (setpriority(2)) than the decoder this process's threads run once
// MakeWay has been called: at nice +6 a thread weighs about a quarter of one at the decoder's
// nice in the kernel's fair scheduler. On two cores the decoder shares one with the compile of
// the rules, the tar walk and the evaluation ahead whenever more than one of them runs; it was
// then preempted ~500 times in a run of 0.25 s and ran 15-25% longer than alone, the last 0.03
// s of the 2,000-member benchmark archive (docs/performance.md, issue 14).
const YieldNice = 6

// maxNice is the largest nice value Linux accepts.
const maxNice = 19

// MakeWay raises the nice value of every thread of this process by YieldNice (to at most 19),
// so that a decoder started before, which kept the process's nice, gets most of a core it
// shares with them: call it after Start. Threads the Go runtime starts later are cloned from
// these and inherit their nice; MakeWay lists the threads again until a pass finds none it has
// not reniced (one started during a pass), three passes at most. An
// unprivileged process cannot lower its nice again: the rest of the run keeps it. Errors are
// ignored (a thread that exited meanwhile; a platform that refuses): it changes only how this
// process shares the CPUs, never what it does.
func MakeWay() {
	done := map[int]bool{}
	for range 3 {
		more := false
		for _, tid := range threads() {
			if done[tid] {
				continue
			}
			done[tid] = true
			more = true
			// The raw getpriority(2) returns 20 - nice (1..40), not nice.
			prio, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
			if err != nil {
				continue
			}
			syscall.Setpriority(syscall.PRIO_PROCESS, tid, min(20-prio+YieldNice, maxNice))
		}
		if !more {
			return
		}
	}
}

// threads lists the thread ids of this process, from /proc/self/task; nil when it cannot be read.
func threads() []int {
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil
	}
	tids := make([]int, 0, len(entries))
	for _, e := range entries {
		if tid, ok := decimal(e.Name()); ok {
			tids = append(tids, tid)
		}
	}
	return tids
}

// decimal parses s, digits only, as a non-negative int (strconv is left out: see the package
// doc).
func decimal(s string) (int, bool) {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' || n > (1<<31)/10 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, s != ""
}
