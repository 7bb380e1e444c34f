package engine_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
	"github.com/rdmadoctor/rdmadoctor/report"
)

func corpusCase(t *testing.T, prefix string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(fixtures.CorpusDir(t), prefix+"-*"))
	if len(m) != 1 {
		t.Fatalf("corpus case %s: %v", prefix, m)
	}
	return m[0]
}

func byID(rep *report.Report, id string) []report.Diagnosis {
	var out []report.Diagnosis
	for _, d := range rep.Diagnoses {
		if d.ID == id {
			out = append(out, d)
		}
	}
	return out
}

// TestUnusedPortsGrouped: corpus case 003 has three uncabled front-end Ethernet ports
// (Disabled) on a node whose other ports run: one line names all three, below the finding about
// ports in use of the same severity.
func TestUnusedPortsGrouped(t *testing.T) {
	rep := diagnose(t, builtinEngine(t), corpusCase(t, "003"), true)
	down := byID(rep, "port-physical-link-down")
	if len(down) != 1 {
		t.Fatalf("want one grouped port-physical-link-down, got %d: %s", len(down), summary(rep))
	}
	d := down[0]
	if d.Scope != "unused_port" || len(d.Also) != 2 || !strings.Contains(d.Message, "(the same on 2 more unused ports: mlx5_7/1, mlx5_8/1)") {
		t.Errorf("grouped diagnosis: scope %s, also %v, message %q", d.Scope, d.Also, d.Message)
	}
	if len(d.Evidence) != 6 {
		t.Errorf("grouped evidence should hold the state lines of all three ports, got %d", len(d.Evidence))
	}
	if last := rep.Diagnoses[len(rep.Diagnoses)-1]; last.ID != "port-physical-link-down" {
		t.Errorf("the unused ports' info should rank last among infos, got %s", summary(rep))
	}
}

// TestFixFitsPortState: corpus case 123's spare IB ports are Polling: the fix neither brings up
// a netdev (`ip link set ... up` is for a Disabled RoCE port) nor re-enables the port (`mlxlink
// -a UP` is for a Disabled one); case 003's Disabled Ethernet port gets both.
func TestFixFitsPortState(t *testing.T) {
	commands := func(d report.Diagnosis) string {
		var cs []string
		for _, f := range d.Fix {
			cs = append(cs, f.Command)
		}
		return strings.Join(cs, "\n")
	}
	polling := byID(diagnose(t, builtinEngine(t), corpusCase(t, "123"), true), "port-physical-link-down")
	if len(polling) == 0 {
		t.Fatal("case 123: no port-physical-link-down")
	}
	if c := commands(polling[0]); strings.Contains(c, "ip link set") || strings.Contains(c, "-a UP") || !strings.Contains(c, "ibstat mlx4_0 2") {
		t.Errorf("Polling IB port got fix:\n%s", c)
	}
	disabled := byID(diagnose(t, builtinEngine(t), corpusCase(t, "003"), true), "port-physical-link-down")
	if c := commands(disabled[0]); !strings.Contains(c, "-a UP") || strings.Contains(c, "ibstat mlx5_2 1") {
		t.Errorf("Disabled Ethernet port got fix:\n%s", c)
	}
}

// TestOneDiagnosisPerCauseAndSubject: corpus case 007 shows the degraded PCIe link in mlxlink's
// view and in the kernel log: one diagnosis quotes both, it is not listed twice.
func TestOneDiagnosisPerCauseAndSubject(t *testing.T) {
	ds := byID(diagnose(t, builtinEngine(t), corpusCase(t, "007"), true), "pcie-link-degraded")
	if len(ds) != 1 {
		t.Fatalf("want one pcie-link-degraded, got %d", len(ds))
	}
	srcs := map[string]bool{}
	for _, e := range ds[0].Evidence {
		srcs[e.Source] = true
	}
	if !srcs["dmesg"] || !srcs["mlxlink"] || !strings.Contains(ds[0].Message, "; also: ") {
		t.Errorf("merged diagnosis should quote mlxlink and dmesg: sources %v, message %q", srcs, ds[0].Message)
	}
}

// TestFixWhenErrors: a fix step's when names port fields or the vendor, and values (a vendor
// among those the engine can tell); anything else is a load error naming the file.
func TestFixWhenErrors(t *testing.T) {
	for _, tc := range []struct{ when, want string }{
		{"#       when: {speed: fast}\n", `unknown field "speed"`},
		{"#       when: Disabled\n", "must be a map of port field or vendor to values"},
		{"#       when: {vendor: NVIDIA}\n", `vendor "NVIDIA" is not one of Amazon, Broadcom, Intel, Mellanox, QLogic`},
		{"#       when: {state: {a: b}}\n", "must be a value or a list of values"},
	} {
		src := rule("x", "#     - command: ibstat {{device}}\n", "#     - command: ibstat {{device}}\n"+tc.when)
		_, err := engine.Load(mapSource(map[string]string{"ib/x.rego": src}))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "u/ib/x.rego:") {
			t.Errorf("when %q: error %v, want %q", tc.when, err, tc.want)
		}
	}
}

// TestFleetFixWhen: a fleet rule's fix step may test the vendor (from the nodes' summaries), not
// a port state (the port is on a snapshot the fleet document does not hold).
func TestFleetFixWhen(t *testing.T) {
	fleetRule := func(when string) string {
		return rule("x", "#   area: ib\n", "#   area: fleet\n", "#   requires: [ib_ports]\n", "#   requires: [nodes_firmware]\n",
			"#     - command: ibstat {{device}}\n", "#     - command: mlxlink -d {{pci}} -m\n"+when)
	}
	if _, err := engine.Load(mapSource(map[string]string{"fleet/x.rego": fleetRule("#       when: {vendor: Mellanox}\n")})); err != nil {
		t.Errorf("when: {vendor: Mellanox} in a fleet rule: %v", err)
	}
	_, err := engine.Load(mapSource(map[string]string{"fleet/x.rego": fleetRule("#       when: {state: Active}\n")}))
	if err == nil || !strings.Contains(err.Error(), "a fleet rule's fix `when` tests the vendor only") {
		t.Errorf("when: {state: Active} in a fleet rule: %v", err)
	}
}
