package live

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jedib0t/go-pretty/v6/progress"
)

// progressMessage is how many columns the progress line gives its message: what is running.
const progressMessage = 48

// NewProgress returns an observer that draws a progress bar on w (a terminal), its message
// naming the commands still running, longest-running first ("running: mstflint -d
// 0000:17:00.0 q, ibstat +3"), so a gather that waits on one slow adapter says on which.
func NewProgress(w io.Writer) Observer {
	pw := progress.NewWriter()
	pw.SetOutputWriter(w)
	pw.SetAutoStop(false)
	pw.SetMessageLength(progressMessage)
	pw.SetTrackerLength(25)
	pw.SetStyle(progress.StyleDefault)
	pw.SetUpdateFrequency(100 * time.Millisecond)
	pw.Style().Visibility.ETA = false
	pw.Style().Visibility.Speed = false
	pw.Style().Visibility.Value = true
	return &bar{pw: pw}
}

type bar struct {
	pw progress.Writer
	t  *progress.Tracker

	mu      sync.Mutex
	running []string // names of the tasks started and not done, in the order they started
}

func (b *bar) Planned(n int) {
	b.t = &progress.Tracker{Message: "gathering", Total: int64(n), Units: progress.UnitsDefault}
	b.pw.AppendTracker(b.t)
	go b.pw.Render()
}

func (b *bar) Started(name string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.running = append(b.running, name)
	if b.t != nil {
		b.t.UpdateMessage(runningMessage(b.running, progressMessage))
	}
}

func (b *bar) Done(name string, r *Run) {
	if b.t == nil {
		return
	}
	b.mu.Lock()
	if i := slices.Index(b.running, name); i >= 0 {
		b.running = slices.Delete(b.running, i, i+1)
	}
	b.t.UpdateMessage(runningMessage(b.running, progressMessage))
	b.mu.Unlock()
	b.t.Increment(1)
}

func (b *bar) Finish() {
	if b.t == nil {
		return
	}
	b.t.UpdateMessage("gathered")
	b.t.MarkAsDone()
	// Let the writer draw the final state before it stops.
	time.Sleep(150 * time.Millisecond)
	b.pw.Stop()
	for b.pw.IsRenderInProgress() {
		time.Sleep(10 * time.Millisecond)
	}
}

// runningMessage names the running tasks in at most width runes, the first started first:
// "running: ibstat, lspci -nnvv +2"; "gathering" when none runs. A name that does not fit
// whole is cut ("…") only when it is the first.
func runningMessage(running []string, width int) string {
	if len(running) == 0 {
		return "gathering"
	}
	msg := "running: "
	for i, name := range running {
		more := ""
		if rest := len(running) - i - 1; rest > 0 {
			more = fmt.Sprintf(" +%d", rest)
		}
		sep := ""
		if i > 0 {
			sep = ", "
		}
		if utf8.RuneCountInString(msg+sep+name+more) > width {
			if i == 0 {
				return shorten(msg+name, width-utf8.RuneCountInString(more)) + more
			}
			return msg + fmt.Sprintf(" +%d", len(running)-i)
		}
		msg += sep + name
	}
	return msg
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// NewLog returns an observer that prints one line per finished command to w (-v).
func NewLog(w io.Writer) Observer { return logObserver{w} }

type logObserver struct{ w io.Writer }

func (l logObserver) Planned(n int) { fmt.Fprintf(l.w, "gather: %d tasks\n", n) }
func (l logObserver) Finish()       {}

func (l logObserver) Done(name string, r *Run) {
	if r == nil {
		fmt.Fprintf(l.w, "gather: copied %s\n", name)
		return
	}
	line := fmt.Sprintf("gather: %-7s %6.2fs %s", r.Status, r.DurationSeconds, strings.Join(r.Argv, " "))
	if r.ExitCode != nil && *r.ExitCode != 0 {
		line += fmt.Sprintf(" (exit %d)", *r.ExitCode)
	}
	if r.Error != "" {
		line += ": " + r.Error
	}
	fmt.Fprintln(l.w, line)
}
