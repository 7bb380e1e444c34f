package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestIgnore(t *testing.T) {
	one, two := 1, 2
	cause := "ib-port-no-subnet-manager"
	r := &Report{Diagnoses: []Diagnosis{
		{Rank: 1, ID: cause, Severity: "critical", Subject: Subject{Device: "mlx5_0", Port: &one}, Message: "no SM on mlx5_0/1"},
		{Rank: 2, ID: cause, Severity: "critical", Subject: Subject{Device: "mlx5_1", Port: &one}, Message: "no SM on mlx5_1/1"},
		{Rank: 3, ID: "ipoib-ipv6-enabled", Severity: "info", Subject: Subject{Device: "mlx5_0", Port: &one, Netdev: "ib0"},
			Message: "ib0 has IPv6", ExplainedBy: &cause, ExplainedByRank: 1},
		{Rank: 4, ID: "link-width-degraded", Severity: "error", Subject: Subject{Device: "mlx5_0", Port: &two}, Message: "2X of 4X"},
	}}
	r.Ignore([]Ignore{
		{ID: cause, Subject: Subject{Device: "mlx5_0"}, Reason: "spare HCA, SM comes with the switch"}, // every port of mlx5_0
		{ID: "link-width-degraded", Subject: Subject{Device: "mlx5_0", Port: &one}, Reason: "not this port"},
		{ID: "ipoib-ipv6-enabled", Subject: Subject{Netdev: "ib1"}, Reason: "other netdev"},
	})
	want := &Report{
		Diagnoses: []Diagnosis{
			{Rank: 1, ID: cause, Severity: "critical", Subject: Subject{Device: "mlx5_1", Port: &one}, Message: "no SM on mlx5_1/1"},
			{Rank: 2, ID: "ipoib-ipv6-enabled", Severity: "info", Subject: Subject{Device: "mlx5_0", Port: &one, Netdev: "ib0"},
				Message: "ib0 has IPv6", ExplainedBy: &cause}, // its cause is ignored: no rank to point at
			{Rank: 3, ID: "link-width-degraded", Severity: "error", Subject: Subject{Device: "mlx5_0", Port: &two}, Message: "2X of 4X"},
		},
		Ignored: []Ignored{{ID: cause, Severity: "critical", Subject: Subject{Device: "mlx5_0", Port: &one},
			Reason: "spare HCA, SM comes with the switch", Message: "no SM on mlx5_0/1"}},
	}
	if diff := cmp.Diff(want, r, cmpopts.IgnoreUnexported(Report{})); diff != "" {
		t.Errorf("Ignore (-want +got):\n%s", diff)
	}
	if !r.IsIgnored(cause) || r.IsIgnored("link-width-degraded") {
		t.Errorf("IsIgnored: got %v for the ignored cause, %v for a kept rule", r.IsIgnored(cause), r.IsIgnored("link-width-degraded"))
	}

	// Ignored diagnoses do not count for --fail-on; hidden ones still do.
	r.Ignore([]Ignore{{ID: cause, Reason: "all of them"}})
	if r.AtLeast("critical") {
		t.Error("AtLeast(critical) with every critical diagnosis ignored")
	}
	r.HideBelow("critical")
	if !r.AtLeast("error") {
		t.Error("AtLeast(error) false although an error diagnosis is only hidden")
	}
}

// TestIgnoredJSON: "ignored" is [] when nothing was ignored, and HTML stays unescaped.
func TestIgnoredJSON(t *testing.T) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(Report{Diagnoses: []Diagnosis{{ID: "x", Fix: []Fix{{Command: "ip link show <netdev> && true"}}}}}); err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if got := string(doc["ignored"]); got != "[]" {
		t.Errorf(`"ignored" = %s, want []`, got)
	}
	if !bytes.Contains(b.Bytes(), []byte(`"ip link show <netdev> && true"`)) {
		t.Errorf("fix command escaped: %s", b.Bytes())
	}
}

func TestSubjectStringFabricNode(t *testing.T) {
	twelve := 12
	for _, tc := range []struct {
		s    Subject
		want string
	}{
		{Subject{NodeGUID: "0xfc6a1c030091cf00", NodeDescription: "Quantum-2 Mellanox Technologies", Port: &twelve}, "0xfc6a1c030091cf00/12 (Quantum-2 Mellanox Technologies)"},
		{Subject{NodeGUID: "0x1c34da0300010540", NodeDescription: "SwitchIB Mellanox Technologies"}, "0x1c34da0300010540 (SwitchIB Mellanox Technologies)"},
		{Subject{NodeDescription: "SwitchIB Mellanox Technologies"}, "SwitchIB Mellanox Technologies"},
		{Subject{Device: "mlx5_0", Port: &twelve}, "mlx5_0/12"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.s, got, tc.want)
		}
	}
}
