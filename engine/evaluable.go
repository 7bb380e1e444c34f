package engine

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// NoRDMAFacts reports whether the snapshot holds nothing about RDMA at all: no RDMA device, no
// InfiniBand or Mellanox PCI function, no firmware, link or fabric record, no RDMA kernel
// messages. Tools that ran and listed nothing (ibstat on a node without HCAs, libibverbs'
// "Failed to get IB devices list", a fabric tool's "can't read ABI version") do not count. The
// CLI exits 3 when this holds and no rule found anything.
func NoRDMAFacts(s *facts.Snapshot) bool {
	for _, fn := range s.PCI {
		// lspci without -nn gives no ids: "Mellanox Technologies" or an InfiniBand class name count too.
		if fn.ClassID == "0207" || fn.VendorID == "15b3" || strings.Contains(fn.Name, "Mellanox") ||
			strings.HasPrefix(fn.Class, "Infiniband") {
			return false
		}
	}
	for _, nd := range s.Netdevs {
		if nd.RDMADevice != "" || nd.QoS != nil || nd.ECN != nil {
			return false
		}
	}
	f := s.Fabric
	for _, r := range f.Refusals {
		if !saysNoStack(r.Message) {
			return false
		}
	}
	return len(s.Devices) == 0 && len(s.NVConfig) == 0 && len(s.Firmware) == 0 && len(s.MlxLink) == 0 &&
		len(s.MSTDevices) == 0 && len(f.Links) == 0 && len(f.SMInfo) == 0 && len(f.PerfCounters) == 0 &&
		len(f.Nodes) == 0 && s.Host.OpenSM == nil && len(s.Host.KernelEvents) == 0
}

// noStack are the words of a tool that found no RDMA stack to talk to (sos runs ibswitches and
// the like on every node: "can't read ABI version ... is ib_umad module loaded?"); such a
// refusal is about the node's lack of RDMA, not about a device or the fabric.
var noStack = []string{"can't read ABI version", "No IB devices found", "Failed to get IB devices list"}

func saysNoStack(msg string) bool {
	for _, w := range noStack {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}
