package engine_test

import (
	"testing"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
)

// TestModuleRefusalIsNoRDMA: `ethtool -m eth0` on a virtio NIC says "netlink error: Operation
// not supported" (Debian's ethtool on this project's CI VM): nothing about RDMA; a module whose
// EEPROM could not be read because of the module ("Input/output error", corpus 115) or whose
// identifier decoded is something to judge.
func TestModuleRefusalIsNoRDMA(t *testing.T) {
	snap := func(m *facts.Module) *facts.Snapshot {
		return &facts.Snapshot{Netdevs: []facts.Netdev{{Name: "eth0", Module: m}}}
	}
	if !engine.NoRDMAFacts(snap(&facts.Module{Unreadable: "Operation not supported"})) {
		t.Error("an ethtool refusal counted as RDMA evidence")
	}
	for _, m := range []*facts.Module{{Unreadable: "Input/output error"}, {Unreadable: "hexdump only"}, {Identifier: "QSFP28"}} {
		if engine.NoRDMAFacts(snap(m)) {
			t.Errorf("module %+v not counted", *m)
		}
	}
}
