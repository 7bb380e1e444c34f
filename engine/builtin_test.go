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
		{"switch encloses its port", report.Subject{NodeGUID: "0xfc6a1c030091cf00"}, report.Subject{NodeGUID: "0xfc6a1c030091cf00", Port: &one}, true},
		{"switch port encloses itself", report.Subject{NodeGUID: "0xfc6a1c030091cf00", Port: &one}, report.Subject{NodeGUID: "0xfc6a1c030091cf00", NodeDescription: "leaf", Port: &one}, true},
		{"switch port is not a local port", report.Subject{NodeGUID: "0xfc6a1c030091cf00", Port: &one}, report.Subject{Device: "mlx5_0", Port: &one}, false},
		{"local port is not a switch port", report.Subject{Device: "mlx5_0", Port: &one}, report.Subject{NodeGUID: "0xfc6a1c030091cf00", Port: &one}, false},
		{"other switch", report.Subject{NodeGUID: "0xfc6a1c030091cf00"}, report.Subject{NodeGUID: "0xfc6a1c03008a4dc0", Port: &one}, false},
		{"node encloses a switch port", report.Subject{}, report.Subject{NodeGUID: "0xfc6a1c030091cf00", Port: &one}, true},
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
		{Command: "modprobe -a {{modules}}"},
	}, report.Subject{Device: "mlx5_0", Port: &port, PCI: "0000:81:00.0"},
		map[string]any{"param": "LINK_TYPE_P2", "value": 2, "modules": []any{"mlx5_core", "ib_uverbs"}, "none": nil})
	want := []report.Fix{
		{Command: "mstconfig -d 0000:81:00.0 set LINK_TYPE_P2=2", Note: "then reset mlx5_0"},
		{Command: "ip link set <netdev> mtu 9000 && ibstat mlx5_0 2"},
		{Command: "modprobe -a mlx5_core ib_uverbs"},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("fix %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestFillQuotes: values from the input are shell-quoted for where they stand in the command;
// notes get them as they are.
func TestFillQuotes(t *testing.T) {
	port := 1
	hostile := report.Subject{Device: "x;reboot;$(id)", Port: &port, PCI: "0000:81:00.0", Netdev: "it's `id`"}
	for _, tc := range []struct {
		name, tmpl string
		vars       map[string]any
		want       string
	}{
		{"word", "sminfo -C {{device}} -P {{port}}", nil, `sminfo -C 'x;reboot;$(id)' -P 1`},
		{"inside a word", "cat /sys/class/net/{{netdev}}/mtu", nil, `cat /sys/class/net/'it'\''s ` + "`id`" + `'/mtu`},
		{"key=value", "mstconfig -d {{pci}} set {{param}}={{value}}", map[string]any{"param": "A B", "value": "1"}, `mstconfig -d 0000:81:00.0 set 'A B'=1`},
		{"list", "modprobe -a {{modules}}", map[string]any{"modules": []any{"mlx5_ib", "a b", "$x"}}, `modprobe -a mlx5_ib 'a b' '$x'`},
		{"newline", "ethtool {{v}}", map[string]any{"v": "a\nreboot"}, "ethtool 'a\nreboot'"},
		{"leading =", "echo {{v}}", map[string]any{"v": "=ls"}, "echo '=ls'"},
		{"in single quotes", "echo '{{device}} x' > f", nil, `echo 'x;reboot;$(id) x' > f`},
		{"quote in single quotes", "echo '{{netdev}}'", nil, `echo 'it'\''s ` + "`id`" + `'`},
		{"in double quotes", `sysctl -w a="{{device}} 1"`, nil, `sysctl -w a=""'x;reboot;$(id)'" 1"`},
		{"plain in double quotes", `sysctl -w a="{{port}} 1"`, nil, `sysctl -w a="1 1"`},
		{"comment", "# update through {{v}}'s tools", map[string]any{"v": "HPE\nreboot"}, `# update through HPE\nreboot's tools`},
		{"after a comment line", "# {{v}}\nibstat {{device}}", map[string]any{"v": "a b"}, "# a b\nibstat 'x;reboot;$(id)'"},
		{"# inside a word", "echo a#{{device}}", nil, `echo a#'x;reboot;$(id)'`},
		{"escaped quote", `echo \'{{device}}`, nil, `echo \''x;reboot;$(id)'`},
		{"operator placeholder", "set_irq_affinity_cpulist.sh <cpus of the slot's socket> {{device}}", nil, "set_irq_affinity_cpulist.sh <cpus of the slot's socket> 'x;reboot;$(id)'"},
		{"redirect", "echo {{device}} <in >>out", nil, "echo 'x;reboot;$(id)' <in >>out"},
		{"no value", "ip link set {{other}} up", nil, "ip link set <other> up"},
	} {
		got := fill([]report.Fix{{Command: tc.tmpl, Note: "on {{device}}"}}, hostile, tc.vars)[0]
		if got.Command != tc.want {
			t.Errorf("%s: %q -> %q, want %q", tc.name, tc.tmpl, got.Command, tc.want)
		}
		if got.Note != "on x;reboot;$(id)" {
			t.Errorf("%s: note %q, want the value as it is", tc.name, got.Note)
		}
	}
}
