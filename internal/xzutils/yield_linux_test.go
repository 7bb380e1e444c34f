package xzutils

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// statField reads field n (as proc(5) counts them, from 1) of thread (or process) path's stat,
// e.g. /proc/self/task/TID/stat, as a number: 19 is the nice value, 41 the scheduling policy.
func statField(t *testing.T, path string, n int) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // from field 3
	v, err := strconv.Atoi(fields[n-3])
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// niceOf is the nice value of path's thread or process (statField 19).
func niceOf(t *testing.T, path string) int { return statField(t, path, 19) }

// policyOf is the scheduling policy of path's thread or process (statField 41): 0 SCHED_OTHER,
// 3 SCHED_BATCH.
func policyOf(t *testing.T, path string) int { return statField(t, path, 41) }

// TestMakeWay: after MakeWay every thread of the process, those the runtime starts afterwards
// too, runs YieldNice nicer than before under SCHED_BATCH, and a decoder started before keeps
// the process's former nice and policy.
func TestMakeWay(t *testing.T) {
	before, beforePolicy := niceOf(t, "/proc/self/stat"), policyOf(t, "/proc/self/stat")
	if before+YieldNice > maxNice {
		t.Skipf("already at nice %d", before) // the test process was started nice
	}
	decoder := exec.Command("sleep", "30")
	if err := decoder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { decoder.Process.Kill(); decoder.Wait() }()

	MakeWay()

	// New threads: goroutines each holding one in a blocking syscall.
	var wg sync.WaitGroup
	release := make(chan struct{})
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r [2]int
			if err := syscall.Pipe(r[:]); err != nil {
				return
			}
			go func() { <-release; syscall.Write(r[1], []byte{0}) }()
			buf := make([]byte, 1)
			syscall.Read(r[0], buf) // blocks its thread until released
			syscall.Close(r[0])
			syscall.Close(r[1])
		}()
	}
	time.Sleep(50 * time.Millisecond)
	tids := threads()
	if len(tids) < 8 {
		t.Fatalf("%d threads: the blocked reads did not hold threads of their own", len(tids))
	}
	for _, tid := range tids {
		stat := "/proc/self/task/" + strconv.Itoa(tid) + "/stat"
		if got := niceOf(t, stat); got != before+YieldNice {
			t.Errorf("thread %d runs at nice %d, want %d", tid, got, before+YieldNice)
		}
		if got := policyOf(t, stat); got != schedBatch {
			t.Errorf("thread %d runs under policy %d, want SCHED_BATCH (%d)", tid, got, schedBatch)
		}
	}
	close(release)
	wg.Wait()
	stat := "/proc/" + strconv.Itoa(decoder.Process.Pid) + "/stat"
	if got := niceOf(t, stat); got != before {
		t.Errorf("the decoder started before runs at nice %d, want %d", got, before)
	}
	if got := policyOf(t, stat); got != beforePolicy {
		t.Errorf("the decoder started before runs under policy %d, want %d", got, beforePolicy)
	}
}

func TestDecimal(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "1234": 1234, "": -1, "12a": -1, "-1": -1, "99999999999": -1} {
		n, ok := decimal(s)
		if !ok {
			n = -1
		}
		if n != want {
			t.Errorf("decimal(%q) = %d, want %d", s, n, want)
		}
	}
}
