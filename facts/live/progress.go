package live

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jedib0t/go-pretty/v6/progress"
)

// NewProgress returns an observer that draws a progress bar on w (a terminal).
func NewProgress(w io.Writer) Observer {
	pw := progress.NewWriter()
	pw.SetOutputWriter(w)
	pw.SetAutoStop(false)
	pw.SetMessageLength(40)
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
}

func (b *bar) Planned(n int) {
	b.t = &progress.Tracker{Message: "gathering", Total: int64(n), Units: progress.UnitsDefault}
	b.pw.AppendTracker(b.t)
	go b.pw.Render()
}

func (b *bar) Done(name string, r *Run) {
	if b.t == nil {
		return
	}
	b.t.UpdateMessage(shorten(name, 40))
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

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
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
