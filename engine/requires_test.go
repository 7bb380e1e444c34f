package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
)

// altRule is a rule with two evidence alternatives: port states at the rule's confidence
// (high), or the kernel log alone at low. It finds each device (evidence from ibstat) and each
// probe failure in the kernel log (evidence from dmesg).
var altRule = rule("alt",
	"#   requires: [ib_ports]\n", `#   requires:
#     - facts: [ib_ports]
#     - facts: [kernel_log]
#       confidence: low
`,
	`findings contains f if {
	some dev in input.devices
	f := {"subject": {"device": dev.name}, "message": dev.name, "evidence": []}
}`, `findings contains f if {
	some dev in input.devices
	f := {"subject": {"device": dev.name}, "message": dev.name, "evidence": [{"source": "ibstat", "path": "ibstat", "line": 1, "text": dev.name}]}
}

findings contains f if {
	some ev in input.host.kernel_events
	f := {"subject": {"pci": ev.pci_address}, "message": ev.kind, "evidence": [ev.evidence]}
}`)

func altEngine(t *testing.T) *engine.Engine {
	t.Helper()
	e, err := engine.New(context.Background(), engine.Options{}, mapSource(map[string]string{"ib/alt.rego": altRule}))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func probeFailed() facts.KernelEvent {
	return facts.KernelEvent{Kind: facts.EventProbeFailed, PCIAddress: "0000:01:00.0",
		Evidence: facts.Evidence{Source: "dmesg", Path: "dmesg", Line: 3, Text: "mlx5_core 0000:01:00.0: probe with driver mlx5_core failed with error -22"}}
}

// TestAlternativeRunsOnEither: the rule runs with only the kernel log (its low alternative),
// and a finding's confidence is that of the alternative its evidence came from.
func TestAlternativeRunsOnEither(t *testing.T) {
	e := altEngine(t)
	s := &facts.Snapshot{Available: []string{"kernel_log"}}
	s.Host.KernelEvents = []facts.KernelEvent{probeFailed()}
	rep, err := e.Diagnose(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 0 || len(rep.Diagnoses) != 1 {
		t.Fatalf("want one diagnosis and nothing skipped, got %+v skipped %+v", rep.Diagnoses, rep.Skipped)
	}
	if got := rep.Diagnoses[0].Confidence; got != "low" {
		t.Errorf("kernel-log-only finding has confidence %q, want low", got)
	}

	s.Available = []string{"ib_ports", "kernel_log"}
	s.Devices = []facts.Device{{Name: "mlx5_0"}}
	rep, err = e.Diagnose(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range rep.Diagnoses {
		got[d.Message] = d.Confidence
	}
	if got["mlx5_0"] != "high" || got[facts.EventProbeFailed] != "low" {
		t.Errorf("confidence by evidence: got %v, want mlx5_0 (ibstat) high and %s (dmesg) low", got, facts.EventProbeFailed)
	}
}

// TestAlternativeSkipReason: with neither alternative, the rule is skipped and the reason
// names both sets.
func TestAlternativeSkipReason(t *testing.T) {
	rep, err := altEngine(t).Diagnose(context.Background(), &facts.Snapshot{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 1 {
		t.Fatalf("skipped: %+v", rep.Skipped)
	}
	sk := rep.Skipped[0]
	if !strings.HasPrefix(sk.Reason, "needs any one of: (a) port states not in snapshot") || !strings.Contains(sk.Reason, "; (b) kernel log not in snapshot") {
		t.Errorf("reason %q does not name both alternatives", sk.Reason)
	}
	if strings.Join(sk.Missing, ",") != "ib_ports,kernel_log" {
		t.Errorf("missing %v", sk.Missing)
	}
}

// TestAlternativeMetadataErrors: malformed alternatives are load errors naming the file and line.
func TestAlternativeMetadataErrors(t *testing.T) {
	for _, tc := range []struct{ name, requires, want string }{
		{"mixed forms", "#   requires:\n#     - ib_ports\n#     - facts: [kernel_log]\n", "is neither a fact group name"},
		{"unknown key", "#   requires:\n#     - facts: [ib_ports]\n#       when: always\n", `unknown key "when"`},
		{"no facts", "#   requires:\n#     - confidence: low\n", "has no facts list"},
		{"bad confidence", "#   requires:\n#     - facts: [ib_ports]\n#       confidence: sure\n", `unknown requires "sure"`},
		{"above the rule", "#   requires:\n#     - facts: [ib_ports]\n#       confidence: low\n", "above the rule's"},
		{"unknown group", "#   requires:\n#     - facts: [ib_portz]\n", `unknown fact group "ib_portz"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := rule("x", "#   requires: [ib_ports]\n", tc.requires)
			if tc.name == "above the rule" {
				src = strings.Replace(src, "confidence: high", "confidence: low", 1)
				src = strings.Replace(src, "#       confidence: low", "#       confidence: high", 1)
			}
			_, err := engine.Load(mapSource(map[string]string{"ib/x.rego": src}))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "u/ib/x.rego:1") {
				t.Errorf("error %v, want one naming u/ib/x.rego:1x and %q", err, tc.want)
			}
		})
	}
}
