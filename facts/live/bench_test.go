package live_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/live/livetest"
)

// BenchmarkGatherStubs measures a gather of the fake H100 node whose stub tools each sleep
// between 200 and 800 ms. Goal: wall time <= 1.2x the slowest stub. x_slowest divides by the
// wall time of the slowest stub run alone (its 800 ms sleep plus the shell, logging and output
// its script does); x_sleep divides by the bare 800 ms.
func BenchmarkGatherStubs(b *testing.B) {
	for _, jobs := range []int{8, 32, live.DefaultJobs} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			s := livetest.Stubs()
			delays := []string{"0.2", "0.35", "0.5", "0.65", "0.8"}
			i := 0
			for _, tool := range sortedTools(s) {
				st := s[tool]
				st.Delay = delays[i%len(delays)]
				s[tool] = st
				i++
			}
			e := livetest.New(b, "root-h100.txtar", s)
			slowest := slowestStub(b, e, s)
			b.ResetTimer()
			var wall time.Duration
			for b.Loop() {
				start := time.Now()
				live.Gather(context.Background(), live.Options{Root: e.Root, Path: []string{e.Bin}, Jobs: jobs})
				wall += time.Since(start)
			}
			per := wall.Seconds() / float64(b.N)
			b.ReportMetric(per/0.8, "x_sleep")
			b.ReportMetric(per/slowest.Seconds(), "x_slowest")
		})
	}
}

// slowestStub runs the stub with the longest delay on its own (best of 3) and returns its wall time.
func slowestStub(b *testing.B, e *livetest.Env, s map[string]livetest.Stub) time.Duration {
	b.Helper()
	tool, longest := "", ""
	for _, t := range sortedTools(s) {
		if s[t].Delay > longest {
			tool, longest = t, s[t].Delay
		}
	}
	best := time.Duration(0)
	for range 3 {
		start := time.Now()
		if err := exec.Command(filepath.Join(e.Bin, tool)).Run(); err != nil {
			b.Fatalf("stub %s: %v", tool, err)
		}
		if d := time.Since(start); best == 0 || d < best {
			best = d
		}
	}
	return best
}

func sortedTools(m map[string]livetest.Stub) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
