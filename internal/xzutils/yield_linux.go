package xzutils

import (
	"os"
	"syscall"
	"unsafe"
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

// schedBatch is Linux's SCHED_BATCH policy (sched(7)): the fair scheduler's, at the same nice,
// but a thread that wakes up never preempts the one running. Without it the decoder, at nice 6
// below, was still preempted 10 to 580 times a run (0.12 s, the 2,000-member benchmark
// archive, kernel 6.18), by the runtime's sysmon and the pauses of the pipe's reader waking on
// its core; with it 3 to 16 times, as alone. Any thread may switch between SCHED_OTHER and
// SCHED_BATCH, and it takes no more of the CPU than nice gives it.
const schedBatch = 3

// MakeWay raises the nice value of every thread of this process by YieldNice (to at most 19)
// and puts it under SCHED_BATCH (schedBatch), so that a decoder started before, which kept the
// process's nice and policy, gets most of a core it shares with them and is not preempted by
// their wake-ups: call it after Start. Threads the Go runtime starts later are cloned from
// these and inherit their nice and policy; MakeWay lists the threads again until a pass finds
// none it has not reniced (one started during a pass), three passes at most. An
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
			batch(tid)
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

// batch puts thread tid under SCHED_BATCH at its nice (sched_setscheduler(2) keeps the nice of
// a thread of the fair class). The error is ignored, as MakeWay's.
func batch(tid int) {
	var param struct{ priority int32 } // struct sched_param: 0 for SCHED_BATCH
	syscall.RawSyscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(tid), schedBatch, uintptr(unsafe.Pointer(&param)))
}
