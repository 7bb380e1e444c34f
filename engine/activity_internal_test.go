package engine

import (
	"context"
	"os"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// TestActivePortOutranks: of two warnings, the one on an Active port ranks first although the
// one on a Down port is more certain; a node-wide warning and one on a port the snapshot does
// not have count as in use; severity still comes first.
func TestActivePortOutranks(t *testing.T) {
	e, err := New(context.Background(), Options{}, Source{Name: "testdata/rules", FS: os.DirFS("testdata/rules")})
	if err != nil {
		t.Fatal(err)
	}
	one, two := 1, 2
	s := &facts.Snapshot{Devices: []facts.Device{{Name: "mlx5_0", Ports: []facts.Port{{Number: 1, State: "Active"}, {Number: 2, State: "Down"}}}}}
	ds := []report.Diagnosis{
		{ID: "a", Severity: "warning", Confidence: "high", Scope: "port", Subject: report.Subject{Device: "mlx5_0", Port: &two}, Message: "down port"},
		{ID: "b", Severity: "warning", Confidence: "low", Scope: "port", Subject: report.Subject{Device: "mlx5_0", Port: &one}, Message: "active port"},
		{ID: "c", Severity: "error", Confidence: "low", Scope: "port", Subject: report.Subject{Device: "mlx5_0", Port: &two}, Message: "error on down port"},
		{ID: "d", Severity: "warning", Confidence: "low", Scope: "port", Subject: report.Subject{Device: "mlx5_9", Port: &one}, Message: "unknown port"},
	}
	var got []string
	for _, d := range e.rank(ds, s) {
		got = append(got, d.Message)
	}
	want := []string{"error on down port", "active port", "unknown port", "down port"}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("order %q, want %q", got, want)
		}
	}
}
