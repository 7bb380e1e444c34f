package live_test

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/live/livetest"
)

// BenchmarkGatherStubs measures a gather of the fake H100 node whose stub tools each sleep
// between 200 and 800 ms. Goal: wall time <= 1.2x the slowest stub, reported as x_slowest.
// Process creation costs ~0.1 s on small VMs, which the goal does not allow for.
func BenchmarkGatherStubs(b *testing.B) {
	for _, jobs := range []int{live.DefaultJobs, 64} {
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
			b.ResetTimer()
			var wall time.Duration
			for b.Loop() {
				start := time.Now()
				live.Gather(context.Background(), live.Options{Root: e.Root, Path: []string{e.Bin}, Jobs: jobs})
				wall += time.Since(start)
			}
			b.ReportMetric(wall.Seconds()/float64(b.N)/0.8, "x_slowest")
		})
	}
}

func sortedTools(m map[string]livetest.Stub) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
