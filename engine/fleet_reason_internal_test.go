package engine

import (
	"strings"
	"testing"
)

// TestFleetGroupReasonSaysWhyRatesAreMissing: nodes whose ports were read but none is Active
// have no port rates, and the reason says so instead of asking to run ibstat on them again.
func TestFleetGroupReasonSaysWhyRatesAreMissing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		counts map[string]int
		want   string
		how    bool // ends with how to get the group
	}{
		{"no port Active", map[string]int{"nodes_ports": 3}, "port rates on 0 of 3 nodes (a comparison needs 2): on 3 with port states, no port is Active", false},
		{"some not read", map[string]int{"nodes_ports": 2, "nodes_port_rates": 1}, "port rates on 1 of 3 nodes (a comparison needs 2): on 1 with port states, no port is Active; on the others ", true},
		{"none read", map[string]int{}, "port rates on 0 of 3 nodes (a comparison needs 2): ", true},
	} {
		got := fleetGroupReason("nodes_port_rates", tc.counts, 3)
		if !strings.HasPrefix(got, tc.want) || strings.Contains(got, "ibstat") != tc.how {
			t.Errorf("%s: %q, want it to begin %q, naming ibstat %v", tc.name, got, tc.want, tc.how)
		}
	}
	if got := fleetGroupReason("nodes_firmware", map[string]int{"nodes_firmware": 1}, 3); !strings.HasPrefix(got, "firmware versions on 1 of 3 nodes (a comparison needs 2): ") {
		t.Errorf("firmware: %q", got)
	}
}
