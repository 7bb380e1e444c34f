package live

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Command statuses in rdmadoctor.yaml.
const (
	RanOK      = "ok"      // ran; see exit_code (a non-zero exit is the tool's own refusal)
	RanMissing = "missing" // no alternative is installed
	RanTimeout = "timeout" // killed, with its children, at its timeout
	RanDenied  = "denied"  // refused by the allow-list (never run)
	RanError   = "error"   // could not be started
	RanNotRun  = "not_run" // the whole gather's deadline passed before it started
)

// maxOutput caps one command's captured output; MaxGatherOutput all of a gather's.
const (
	maxOutput = 32 << 20
	// MaxGatherOutput is the output budget of one gather, shared by all its commands (64 jobs
	// at maxOutput each would hold 2 GB): a command's output past it is cut, and recorded as
	// truncated.
	MaxGatherOutput = 256 << 20
)

// Run is what happened to one command.
type Run struct {
	Argv []string `yaml:"argv"`
	// File is the output's path in the snapshot; empty when nothing was written.
	File            string  `yaml:"file,omitempty"`
	Status          string  `yaml:"status"`
	ExitCode        *int    `yaml:"exit_code,omitempty"`
	DurationSeconds float64 `yaml:"duration_seconds"`
	TimedOut        bool    `yaml:"timed_out"`
	TimeoutSeconds  float64 `yaml:"timeout_seconds,omitempty"`
	// Truncated says the output was cut, at maxOutput or where the gather's budget ran out;
	// the file holds its start.
	Truncated bool   `yaml:"truncated,omitempty"`
	Error     string `yaml:"error,omitempty"`
	output    []byte
}

// runner executes allow-listed commands found in its search path.
type runner struct {
	path    []string
	timeout time.Duration
	budget  *budget // the gather's output budget; nil: only maxOutput
}

// budget is the output bytes a gather's commands may still keep, shared by all of them.
type budget struct {
	mu   sync.Mutex
	left int64
}

func newBudget(n int64) *budget { return &budget{left: n} }

// take reserves up to n bytes and returns how many it got.
func (b *budget) take(n int) int {
	if b == nil {
		return n
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	k := min(int64(n), b.left)
	b.left -= k
	return int(k)
}

// lookPath finds an executable name in the runner's search path.
func (r *runner) lookPath(name string) (string, bool) {
	for _, dir := range r.path {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		st, err := os.Stat(p)
		if err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

// runCommand runs the first installed alternative of c (the next one as well when c.Fallback
// and it failed).
func (r *runner) runCommand(ctx context.Context, c Command) Run {
	var last *Run
	for _, argv := range c.Alts {
		if err := Check(argv); err != nil {
			return Run{Argv: argv, Status: RanDenied, Error: err.Error()}
		}
		bin, ok := r.lookPath(argv[0])
		if !ok {
			continue
		}
		res := r.exec(ctx, bin, argv)
		if !c.Fallback || (res.Status == RanOK && *res.ExitCode == 0) {
			return res
		}
		if last == nil {
			last = &res
		}
	}
	if last != nil {
		return *last
	}
	return Run{Argv: c.Alts[0], Status: RanMissing, Error: c.notInstalled()}
}

// exec runs argv (argv[0] resolved to bin) in its own process group with LC_ALL=C, no stdin and
// stdout+stderr combined, as sos captures them. At the timeout the whole group is killed, so a
// tool's children die with it.
func (r *runner) exec(parent context.Context, bin string, argv []string) Run {
	res := Run{Argv: argv, TimeoutSeconds: r.timeout.Seconds()}
	if parent.Err() != nil {
		res.Status, res.Error = RanNotRun, NotStarted
		return res
	}
	ctx, cancel := context.WithTimeout(parent, r.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Env = []string{"LC_ALL=C", "LANG=C", "PATH=" + strings.Join(r.path, ":"), "HOME=/", "TERM=dumb"}
	out := &capped{max: maxOutput, budget: r.budget}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		killTree(cmd.Process.Pid) // those that left the group, too (reap_linux.go)
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	// A grandchild that escaped the kill must not keep Wait blocked on the output pipe.
	cmd.WaitDelay = time.Second
	start := time.Now()
	pid, err := started(func() (int, error) {
		if err := cmd.Start(); err != nil {
			return 0, err
		}
		return cmd.Process.Pid, nil
	})
	if err != nil {
		res.Status, res.Error = RanError, err.Error()
		if parent.Err() != nil {
			// The deadline passed between the check above and Start (exec.Cmd refuses a
			// done context): not run, as when it passed earlier, never "could not be started".
			res.Status, res.Error = RanNotRun, NotStarted
		} else if ctx.Err() != nil {
			res.Status, res.TimedOut, res.Error = RanTimeout, true, fmt.Sprintf("killed after %s", r.timeout)
		}
		return res
	}
	err = cmd.Wait()
	// Leave nothing behind: background children of a tool that exited die with its group, and
	// those that started their own session with the sweep of ended.
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	ended(pid)
	res.DurationSeconds = time.Since(start).Seconds()
	res.output = out.buf
	if ctx.Err() != nil {
		res.Status, res.TimedOut = RanTimeout, true
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && parent.Err() == nil {
			res.Error = fmt.Sprintf("killed after %s", r.timeout)
		} else {
			res.Error = "killed at the gather deadline"
		}
		return res
	}
	code := cmd.ProcessState.ExitCode()
	res.Status, res.ExitCode = RanOK, &code
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) && !errors.Is(err, exec.ErrWaitDelay) {
		res.Error = err.Error()
	}
	if out.truncated {
		res.Truncated = true
		if len(out.buf) < maxOutput {
			res.Error = fmt.Sprintf("output truncated at %d bytes: the gather's output budget (%d bytes) was spent", len(out.buf), MaxGatherOutput)
		} else {
			res.Error = fmt.Sprintf("output truncated at %d bytes", maxOutput)
		}
	}
	return res
}

// capped is a buffer that keeps the first max bytes written to it, within what budget allows.
type capped struct {
	buf       []byte
	max       int
	budget    *budget
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	want := min(len(p), max(c.max-len(c.buf), 0))
	got := c.budget.take(want)
	c.buf = append(c.buf, p[:got]...)
	if got < len(p) {
		c.truncated = true
	}
	return len(p), nil
}
