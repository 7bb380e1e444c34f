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

// niceOf reads the nice value of thread (or process) path's stat, e.g. /proc/self/task/TID/stat:
// field 19, counted after the parenthesised command name.
func niceOf(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	n, err := strconv.Atoi(fields[16]) // field 19; the fields after the name start at field 3
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return n
}

// TestMakeWay: after MakeWay every thread of the process, those the runtime starts afterwards
// too, runs YieldNice nicer than before, and a decoder started before keeps the process's
// former nice.
func TestMakeWay(t *testing.T) {
	before := niceOf(t, "/proc/self/stat")
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
		if got := niceOf(t, "/proc/self/task/"+strconv.Itoa(tid)+"/stat"); got != before+YieldNice {
			t.Errorf("thread %d runs at nice %d, want %d", tid, got, before+YieldNice)
		}
	}
	close(release)
	wg.Wait()
	if got := niceOf(t, "/proc/"+strconv.Itoa(decoder.Process.Pid)+"/stat"); got != before {
		t.Errorf("the decoder started before runs at nice %d, want %d", got, before)
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
