package engine

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// TestInputValueMatchesJSON: the direct conversion gives the document encoding/json would,
// on every corpus case (real snapshots exercise nulls, omitempty, maps and floats).
func TestInputValueMatchesJSON(t *testing.T) {
	one, rate := 1, 56.0
	snaps := map[string]*facts.Snapshot{"synthetic": {
		Devices: []facts.Device{{Name: "mlx5_0", NumPorts: &one, Ports: []facts.Port{{Number: 1, RateGbps: &rate,
			Counters: map[string]int64{"symbol_error": 3}}}}},
		Netdevs: []facts.Netdev{{Name: "ib0", AdminUp: new(bool), IPv4: []string{}}},
		Profile: &facts.Profile{ExpectedRateGbps: &rate},
	}}
	for name, s := range corpusSnapshots(t) {
		snaps[name] = s
	}
	for name, s := range snaps {
		got, err := inputValue(s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ast.ValueFromReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if ast.Compare(want, got) != 0 {
			t.Errorf("%s: direct conversion differs from JSON:\n got %v\nwant %v", name, got, want)
		}
	}
}
