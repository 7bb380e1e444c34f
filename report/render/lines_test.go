package render

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// TestLines: one tab-separated line per diagnosis in rank order; a tab or a line feed in the
// input (a device name) is made visible and never splits a field or a line, and a backslash is
// doubled, so that a message holding the two characters \n is told from one holding a line feed.
func TestLines(t *testing.T) {
	r := testReport()
	r.Diagnoses = append(r.Diagnoses, report.Diagnosis{Rank: 5, ID: "ib-port-down", Severity: "error",
		Subject: report.Subject{Device: "mlx5\t0\nx", Port: ptr(1)}, Message: "down\tand\nout"},
		report.Diagnosis{Rank: 6, ID: "ib-port-down", Severity: "error",
			Subject: report.Subject{Device: `mlx5\t0\nx`, Port: ptr(1)}, Message: `C:\new\x1b` + "\x1b[2J\u202e"})
	var b bytes.Buffer
	if err := Write(&b, "lines", r, Options{}); err != nil {
		t.Fatal(err)
	}
	want := "critical\tib-port-no-subnet-manager\tibp4s0/1 (ib0)\tibp4s0 port 1 is LinkUp but Initializing: no SM has assigned it a LID\n" +
		"warning\tipoib-interface-down\tibp4s0/1 (ib0)\tib0 has no carrier | NO-CARRIER\n" +
		"error\tpcie-link-degraded\tibp4s0 (0000:04:00.0)\t0000:04:00.0 runs 8GT/s x4 of 8GT/s x8\n" +
		"info\trdma-memlock-limit-too-low\tnode\tmax locked memory is 64 KiB\n" +
		`error	ib-port-down	mlx5\t0\nx/1	down\tand\nout` + "\n" +
		`error	ib-port-down	mlx5\\t0\\nx/1	C:\\new\\x1b\x1b[2J\u202e` + "\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b.Reset()
	if err := Lines(&b, &report.Report{}); err != nil || b.Len() != 0 {
		t.Errorf("no diagnoses: %q, %v; want nothing", b.String(), err)
	}
}
