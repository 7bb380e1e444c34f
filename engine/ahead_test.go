package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// withUnrecognized returns testSnapshot with the sources an archive read further adds without
// keeping anything more: files no parser recognises and their count.
func withUnrecognized(n int) *facts.Snapshot {
	s := testSnapshot()
	s.Sources = append(s.Sources,
		facts.Source{Name: "unrecognized", Origin: "notes.txt", Status: facts.StatusUnrecognized, Error: "no parser recognises this file by name or content"},
		facts.Source{Name: "unrecognized", Origin: "sos_commands/*", Status: facts.StatusUnrecognized, Error: fmt.Sprintf("%d other sosreport files not relevant to RDMA", n)})
	return s
}

// TestDiagnoseWithTakesEvaluationAhead: the report of a snapshot that differs from the one
// evaluated ahead only in its unrecognized sources (it takes that evaluation: the internal
// TestEvaluationTaken) is the report Diagnose makes, the sources listed whole.
func TestDiagnoseWithTakesEvaluationAhead(t *testing.T) {
	e := testEngine(t)
	ahead := e.Evaluate(context.Background(), withUnrecognized(40))
	final := withUnrecognized(2000)
	got, err := e.DiagnoseWith(context.Background(), final, ahead)
	if err != nil {
		t.Fatal(err)
	}
	want, err := e.Diagnose(context.Background(), final)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(report.Report{})); diff != "" {
		t.Errorf("report with the evaluation ahead (-Diagnose +DiagnoseWith):\n%s", diff)
	}
	if len(want.Diagnoses) == 0 || got.Sources[len(got.Sources)-1].Error != "2000 other sosreport files not relevant to RDMA" {
		t.Errorf("%d diagnoses, last source %+v", len(want.Diagnoses), got.Sources[len(got.Sources)-1])
	}
}
