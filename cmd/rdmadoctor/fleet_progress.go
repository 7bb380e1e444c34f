package main

import (
	"io"
	"os"
	"time"

	"github.com/jedib0t/go-pretty/v6/progress"
	"github.com/mattn/go-isatty"
)

// fleetProgress shows "nodes done / total" on stderr while a fleet is diagnosed, only when
// stderr is a terminal (a go-pretty progress tracker); otherwise update and stop do nothing, so
// logs and pipes get no progress lines.
func fleetProgress(stderr io.Writer, total int) (update func(done, total int), stop func()) {
	f, ok := stderr.(*os.File)
	if !ok || total < 2 || !(isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())) {
		return nil, func() {}
	}
	pw := progress.NewWriter()
	pw.SetOutputWriter(stderr)
	pw.SetAutoStop(false)
	pw.SetUpdateFrequency(200 * time.Millisecond)
	pw.SetTrackerLength(30)
	pw.Style().Visibility.ETA = true
	pw.Style().Visibility.Percentage = true
	t := &progress.Tracker{Message: "diagnosing nodes", Total: int64(total), Units: progress.UnitsDefault}
	pw.AppendTracker(t)
	go pw.Render()
	update = func(done, _ int) { t.SetValue(int64(done)) }
	stop = func() {
		t.MarkAsDone()
		pw.Stop()
		for pw.IsRenderInProgress() {
			time.Sleep(10 * time.Millisecond)
		}
	}
	return update, stop
}
