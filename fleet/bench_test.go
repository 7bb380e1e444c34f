package fleet

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/internal/diagnosis"
)

// benchCases are the node-sized corpus cases scripts/bench-fleet.sh builds its fleet from.
var benchCases = []string{"005", "010", "017", "018", "021", "026", "038", "056", "101", "112", "126"}

// BenchmarkRun diagnoses a fleet of 110 snapshots (the bench cases, 10 copies each) per
// iteration; `go test ./fleet -run '^$' -bench Run -cpuprofile cpu.out` profiles the per-node
// path. make bench-fleet times the whole command on 10,000.
func BenchmarkRun(b *testing.B) {
	dir := b.TempDir()
	var paths []string
	for i := range 10 {
		for _, c := range benchCases {
			matches, _ := filepath.Glob(filepath.Join("..", "fixtures", "corpus", c+"-*"))
			if len(matches) != 1 {
				b.Fatalf("corpus case %s: %v", c, matches)
			}
			paths = append(paths, copyCase(b, dir, filepath.Base(matches[0]), fmt.Sprintf("node%s-%02d", c, i)))
		}
	}
	e := builtin(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Run(context.Background(), paths, Options{Engine: e, Diagnosis: diagnosis.Options{MinSeverity: "info"}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(paths)), "µs/node")
}
