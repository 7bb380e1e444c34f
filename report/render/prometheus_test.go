package render

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// runTime is the fixed end of run the golden files show (2026-12-02T03:30:00Z).
var runTime = time.Date(2026, 12, 2, 3, 30, 0, 0, time.UTC)

// TestPrometheusGolden: the metrics of the shared test report (a cause and its consequence, an
// unreadable lspci, skipped rules) and of a report of a node with no RDMA facts (exit 3).
func TestPrometheusGolden(t *testing.T) {
	noRDMA := &report.Report{SchemaVersion: 1, Tool: report.Tool{Name: "rdmadoctor", Version: "1.2.3"},
		Source: facts.SourceInfo{Kind: "captures", Path: "empty"}, Diagnoses: []report.Diagnosis{}, Skipped: []report.Skipped{},
		Sources: []facts.Source{{Name: "unrecognized", Origin: "notes.txt", Status: facts.StatusUnrecognized}}}
	for _, tc := range []struct {
		golden string
		r      *report.Report
		opts   Options
	}{
		{"report.prom", testReport(), Options{Time: runTime}},
		{"no-rdma.prom", noRDMA, Options{Time: runTime, NoRDMAFacts: true}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			tc.r.SetCompleteness()
			var b bytes.Buffer
			if err := Write(&b, "prometheus", tc.r, tc.opts); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tc.golden)
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("%s differs; go test ./report/render -update rewrites it (-want +got):\n%s", path, diff)
			}
		})
	}
}

// TestPrometheusParses reads the output back with Prometheus' own text parser: every severity is
// counted, a label value with a quote, a backslash, a line feed or a byte that is not UTF-8 (a
// device name is the input's) comes back as written, and two diagnoses with the same labels
// are one series counting 2 (node_exporter drops a file that repeats a series).
func TestPrometheusParses(t *testing.T) {
	r := testReport()
	hostile := "mlx5_\"0\\\n\xff"
	r.Diagnoses = append(r.Diagnoses,
		report.Diagnosis{Rank: 5, ID: "switch-port-errors", Severity: "warning", Confidence: "high",
			Subject: report.Subject{NodeGUID: "0xfc6a1c030091cf00", Port: ptr(12), NodeDescription: "Quantum-2 a"}},
		report.Diagnosis{Rank: 6, ID: "switch-port-errors", Severity: "warning", Confidence: "high",
			Subject: report.Subject{NodeGUID: "0xfc6a1c030091cf00", Port: ptr(12), NodeDescription: "Quantum-2 b"}},
		report.Diagnosis{Rank: 7, ID: "ib-port-down", Severity: "error", Confidence: "high",
			Subject: report.Subject{Device: hostile, Port: ptr(1)}})
	r.SetCompleteness()
	var b bytes.Buffer
	if err := Prometheus(&b, r, Options{Time: runTime}); err != nil {
		t.Fatal(err)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(&b)
	if err != nil {
		t.Fatalf("Prometheus' parser refuses the output: %v\n%s", err, b.String())
	}
	values := func(name string) map[string]float64 {
		out := map[string]float64{}
		for _, m := range fams[name].GetMetric() {
			var key []string
			for _, l := range m.GetLabel() {
				if l.GetValue() != "" {
					key = append(key, l.GetName()+"="+l.GetValue())
				}
			}
			out[strings.Join(key, ",")] = m.GetGauge().GetValue()
		}
		return out
	}
	wantSeverities := map[string]float64{"severity=critical": 1, "severity=error": 2, "severity=warning": 3, "severity=info": 1}
	if diff := cmp.Diff(wantSeverities, values("rdmadoctor_diagnoses")); diff != "" {
		t.Errorf("rdmadoctor_diagnoses (-want +got):\n%s", diff)
	}
	diag := values("rdmadoctor_diagnosis")
	if got := diag["id=switch-port-errors,severity=warning,confidence=high,port=12,node_guid=0xfc6a1c030091cf00"]; got != 2 {
		t.Errorf("two diagnoses with the same labels = %v, want one series of 2; all: %v", got, diag)
	}
	if got := diag["id=ib-port-down,severity=error,confidence=high,device=mlx5_\"0\\\n\uFFFD,port=1"]; got != 1 {
		t.Errorf("hostile device name did not come back as written (with U+FFFD for the bad byte): %v", diag)
	}
	if len(diag) != 6 {
		t.Errorf("%d diagnosis series, want 6 (7 diagnoses, 2 of them with the same labels): %v", len(diag), diag)
	}
	if got := values("rdmadoctor_input_incomplete"); !cmp.Equal(got, map[string]float64{"input=lspci,origin=sos_commands/pci/lspci_-nnvv,status=error": 1}) {
		t.Errorf("rdmadoctor_input_incomplete = %v, want the unreadable lspci", got)
	}
	for name, want := range map[string]float64{"rdmadoctor_complete": 0, "rdmadoctor_rdma_facts": 1,
		"rdmadoctor_rules_evaluated": 9, "rdmadoctor_rules_skipped": 3, "rdmadoctor_inputs_incomplete": 1,
		"rdmadoctor_last_run_timestamp_seconds": float64(runTime.Unix())} {
		if got := values(name)[""]; got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	for name, f := range fams {
		if f.GetType() != dto.MetricType_GAUGE || f.GetHelp() == "" {
			t.Errorf("%s: type %v, help %q: want a gauge with help", name, f.GetType(), f.GetHelp())
		}
	}
}

// TestPrometheusNoTime: without Options.Time the output has no time, so it is the same for the
// same report.
func TestPrometheusNoTime(t *testing.T) {
	var b bytes.Buffer
	if err := Prometheus(&b, testReport(), Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "rdmadoctor_last_run_timestamp_seconds") {
		t.Errorf("a run time without Options.Time:\n%s", b.String())
	}
}
