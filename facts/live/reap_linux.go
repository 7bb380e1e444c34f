package live

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A tool's child that starts its own session (setsid, a daemon's double fork) leaves the
// tool's process group, which is what the timeout kills. To end every descendant, the gatherer
// becomes a child subreaper (prctl(2) PR_SET_CHILD_SUBREAPER): orphans of the tools are
// re-parented to it instead of init, so that it can find (/proc/<pid>/stat, ppid), kill and
// reap them.

var subreaperOnce sync.Once

// becomeSubreaper makes this process the subreaper of its descendants; it lasts for the
// process. Without it (an old kernel) orphans that left the group are not found.
func becomeSubreaper() {
	subreaperOnce.Do(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
}

// running are the pids of the commands in flight, over all gathers of the process: every other
// child of this process (after a gather started) is an orphan of theirs. startMu is held from
// fork to registration, so that a sweep never takes a command being started for an orphan.
var (
	startMu sync.Mutex
	running = map[int]bool{}
)

// started registers a command's pid (start runs under startMu and returns the pid, or an error).
func started(start func() (int, error)) (int, error) {
	startMu.Lock()
	defer startMu.Unlock()
	pid, err := start()
	if err == nil {
		running[pid] = true
	}
	return pid, err
}

// ended unregisters the command pid, once it has been reaped, and ends what it left behind:
// its children were re-parented here when it exited.
func ended(pid int) {
	startMu.Lock()
	delete(running, pid)
	startMu.Unlock()
	sweepOrphans()
}

// killTree kills the descendants of pid (not pid itself), whatever their process group or
// session: at a command's timeout, while its children still name it as their parent.
func killTree(pid int) {
	kids := children()
	todo := kids[pid]
	for len(todo) > 0 {
		p := todo[0]
		todo = append(todo[1:], kids[p]...)
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
}

// sweepOrphans kills and reaps the children of this process that are not commands in flight:
// descendants of tools that outlived them and were re-parented here.
func sweepOrphans() {
	startMu.Lock()
	defer startMu.Unlock()
	for _, p := range children()[os.Getpid()] {
		if running[p] {
			continue
		}
		killTree(p)
		_ = syscall.Kill(p, syscall.SIGKILL)
		reap(p)
	}
}

// reap waits for the killed child p, a little: one stuck in the kernel (a read of a hung
// device) dies only when that returns, and a later sweep reaps it then.
func reap(p int) {
	for range 50 {
		var ws syscall.WaitStatus
		if got, err := syscall.Wait4(p, &ws, syscall.WNOHANG, nil); got != 0 || err != nil {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// children maps each pid to its children's pids, from /proc/<pid>/stat.
func children() map[int][]int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := map[int][]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(pid); ok {
			out[ppid] = append(out[ppid], pid)
		}
	}
	return out
}

// parentOf reads the ppid of pid: the 4th field of /proc/<pid>/stat, after the command name
// in parentheses (which may hold spaces and parentheses itself).
func parentOf(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:]) // state ppid ...
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}
