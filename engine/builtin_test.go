package engine

import (
	"context"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// TestBuiltinRules loads, validates and type-checks the embedded rules against the snapshot
// schema: a rule reading a field the facts do not have fails here with its file and row.
func TestBuiltinRules(t *testing.T) {
	e, err := New(context.Background(), Options{}, Builtin())
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, r := range e.Rules() {
		ids[r.ID] = true
	}
	for _, r := range e.Rules() {
		for _, x := range r.Explains {
			if !ids[x] && e.set.catalogIndex(x) == len(e.set.order) {
				t.Errorf("%s: explains %q, which is neither a rule nor a catalog id", r.File, x)
			}
		}
	}
	if len(e.set.order) == 0 {
		t.Errorf("%s lists no rules", catalogOrderFile)
	}
}

// TestGroupHints: every fact group has a hint for the skipped list.
func TestGroupHints(t *testing.T) {
	for g := range facts.FactGroups {
		if h, ok := groupHints[g]; !ok || h.what == "" || h.how == "" {
			t.Errorf("fact group %q has no hint in groupHints", g)
		}
	}
	for g := range groupHints {
		if _, ok := facts.FactGroups[g]; !ok {
			t.Errorf("groupHints has %q, which facts.FactGroups does not", g)
		}
	}
}

func TestEncloses(t *testing.T) {
	one, two := 1, 2
	for _, tc := range []struct {
		name         string
		outer, inner report.Subject
		want         bool
	}{
		{"node encloses a port", report.Subject{}, report.Subject{Device: "mlx5_0", Port: &one}, true},
		{"device encloses its port", report.Subject{Device: "mlx5_0"}, report.Subject{Device: "mlx5_0", Port: &one, Netdev: "ib0"}, true},
		{"device by PCI address encloses a port of it", report.Subject{PCI: "0000:81:00.0"}, report.Subject{Device: "mlx5_0", Port: &one, PCI: "0000:81:00.0"}, true},
		{"port encloses its netdev", report.Subject{Device: "mlx5_0", Port: &one, PCI: "0000:81:00.0"}, report.Subject{Device: "mlx5_0", Port: &one, Netdev: "ib0"}, true},
		{"netdev encloses the same netdev", report.Subject{Netdev: "ib0"}, report.Subject{Device: "mlx5_0", Port: &one, Netdev: "ib0"}, true},
		{"other port", report.Subject{Device: "mlx5_0", Port: &one}, report.Subject{Device: "mlx5_0", Port: &two}, false},
		{"other device", report.Subject{Device: "mlx5_0"}, report.Subject{Device: "mlx5_1", Port: &one}, false},
		{"port does not enclose its device", report.Subject{Device: "mlx5_0", Port: &one}, report.Subject{Device: "mlx5_0"}, false},
		{"device does not enclose the node", report.Subject{Device: "mlx5_0"}, report.Subject{}, false},
		{"contradicting netdev", report.Subject{Device: "mlx5_0", Port: &one, Netdev: "ib0"}, report.Subject{Device: "mlx5_0", Port: &one, Netdev: "ib1"}, false},
	} {
		if got := encloses(tc.outer, tc.inner); got != tc.want {
			t.Errorf("%s: encloses = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestFill(t *testing.T) {
	port := 2
	got := fill([]report.Fix{
		{Command: "mstconfig -d {{pci}} set {{param}}={{value}}", Note: "then reset {{device}}"},
		{Command: "ip link set {{ netdev }} mtu 9000 && ibstat {{device}} {{port}}"},
	}, report.Subject{Device: "mlx5_0", Port: &port, PCI: "0000:81:00.0"}, map[string]any{"param": "LINK_TYPE_P2", "value": 2})
	want := []report.Fix{
		{Command: "mstconfig -d 0000:81:00.0 set LINK_TYPE_P2=2", Note: "then reset mlx5_0"},
		{Command: "ip link set <netdev> mtu 9000 && ibstat mlx5_0 2"},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("fix %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
