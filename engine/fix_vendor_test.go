package engine_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// mellanoxTool matches a fix text that runs or names an NVIDIA/Mellanox tool.
var mellanoxTool = regexp.MustCompile(`\b(mlxlink|mstlink|mstconfig|mlxconfig|mstflint|flint|mlxfwmanager|mlxup|mstfwreset|mlxfwreset|mlnx_qos|mlnx_tune|mlnx-tools|set_irq_affinity\w*)\b`)

func diagnoseFiles(t *testing.T, files map[string]string) *report.Report {
	t.Helper()
	s, err := build.Snapshot(fixtures.Files(t, files), facts.SourceInfo{Kind: "captures", Path: "node"})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := builtinEngine(t).Diagnose(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func findDiagnosis(rep *report.Report, id, subject string) *report.Diagnosis {
	for i := range rep.Diagnoses {
		if d := &rep.Diagnoses[i]; d.ID == id && d.Subject.String() == subject {
			return d
		}
	}
	return nil
}

func fixText(d *report.Diagnosis) string {
	var b strings.Builder
	for _, f := range d.Fix {
		b.WriteString(f.Command + "\n" + f.Note + "\n")
	}
	return b.String()
}

// TestFixNamesOnlyTheBoardVendorsTools: on an Intel E810 (irdma; `rdma link` and `ibv_devinfo
// -v` of one host, fixtures PROVENANCE) a port Disabled gives port-physical-link-down, whose
// fix names no Mellanox tool: the vendor-neutral steps (ethtool -m, ip link set up) stay, and a
// last step says the Mellanox steps were left out and why the board is Intel's. No other
// diagnosis of that host names one either. The same finding on a ConnectX (mlx5, `rdma link` of
// corpus 013) still names mlxlink.
func TestFixNamesOnlyTheBoardVendorsTools(t *testing.T) {
	intel := diagnoseFiles(t, map[string]string{
		"rdma_link":      "rdma_link/irdma-e810.txt",
		"ibv_devinfo_-v": "ibv_devinfo/irdma-e810-verbose.txt",
	})
	d := findDiagnosis(intel, "port-physical-link-down", "irdma0/1 (enp23s0f0)")
	if d == nil {
		t.Fatalf("no port-physical-link-down on irdma0/1 (enp23s0f0): %+v", intel.Diagnoses)
	}
	text := fixText(d)
	if m := mellanoxTool.FindString(text); m != "" {
		t.Errorf("the Intel board's fix names %s:\n%s", m, text)
	}
	for _, want := range []string{"ethtool -m enp23s0f0", "ip link set dev enp23s0f0 up",
		"# Mellanox steps left out: an Intel adapter",
		"the same needs Intel's own tools; the name irdma0 is given by the irdma driver"} {
		if !strings.Contains(text, want) {
			t.Errorf("the Intel board's fix lacks %q:\n%s", want, text)
		}
	}
	for i := range intel.Diagnoses {
		if m := mellanoxTool.FindString(fixText(&intel.Diagnoses[i])); m != "" {
			t.Errorf("%s on %s names %s", intel.Diagnoses[i].ID, intel.Diagnoses[i].Subject, m)
		}
	}

	mlx := diagnoseFiles(t, map[string]string{"rdma_link": "rdma_link/dgx-a100.txt"})
	d = findDiagnosis(mlx, "port-physical-link-down", "mlx5_1/1")
	if d == nil {
		t.Fatalf("no port-physical-link-down on mlx5_1/1: %+v", mlx.Diagnoses)
	}
	if text := fixText(d); !strings.Contains(text, "mlxlink -d <mlxlink_device> -p 1 -a UP") || strings.Contains(text, "steps left out") {
		t.Errorf("the ConnectX's fix lost its mlxlink steps:\n%s", text)
	}
}
