package engine

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// NoRDMAFacts reports whether the snapshot holds nothing about RDMA at all: no RDMA device, no
// InfiniBand or Mellanox PCI function, no IPoIB netdev or SR-IOV VF with InfiniBand GUIDs, no
// mlx4/mlx5 interrupt, no module EEPROM, no firmware, link or fabric record, no RDMA kernel
// messages, no interface an NCCL job log names. Tools that ran and listed
// nothing (ibstat on a node without HCAs, libibverbs' "Failed to get IB devices list", a fabric
// tool's "can't read ABI version") do not count. The CLI exits 3 when this holds and no rule
// found anything.
//
// A module EEPROM counts whatever the NIC's vendor: `ethtool -m` is what the module and link
// rules judge, it was taken for an RDMA check, and the same decode runs for a ConnectX port and
// for another RDMA-capable NIC (corpus 028: an Intel E810, an iWARP/RoCE NIC, with a Mellanox
// DAC); "nothing about RDMA" would hide that the module was read and judged.
func NoRDMAFacts(s *facts.Snapshot) bool {
	for _, fn := range s.PCI {
		// lspci without -nn gives no ids: "Mellanox Technologies" or an InfiniBand class name count too.
		if fn.ClassID == "0207" || fn.VendorID == "15b3" || strings.Contains(fn.Name, "Mellanox") ||
			strings.HasPrefix(fn.Class, "Infiniband") {
			return false
		}
	}
	for _, nd := range s.Netdevs {
		if nd.RDMADevice != "" || nd.QoS != nil || nd.ECN != nil || nd.Kind == facts.NetdevIPoIB || moduleRead(nd.Module) || ibVFs(nd) {
			return false
		}
	}
	for _, q := range s.IRQs {
		if q.Kind != "" && q.Kind != "other" { // an mlx4/mlx5 completion, async or control vector
			return false
		}
	}
	if len(s.Host.NCCLNetdevs) > 0 {
		return false
	}
	f := s.Fabric
	for _, r := range f.Refusals {
		if !saysNoStack(r.Message) {
			return false
		}
	}
	return len(s.Devices) == 0 && len(s.NVConfig) == 0 && len(s.Firmware) == 0 && len(s.MlxLink) == 0 && len(s.PortInfo) == 0 &&
		len(s.MSTDevices) == 0 && len(f.Links) == 0 && len(f.SMInfo) == 0 && len(f.PerfCounters) == 0 &&
		len(f.Nodes) == 0 && len(f.Ports) == 0 && len(f.Switches) == 0 && len(f.Diagnostics) == 0 && s.Host.OpenSM == nil && len(s.Host.KernelEvents) == 0 &&
		len(s.Perftest) == 0 // a perftest run was read: its results are judged
}

// moduleRead reports whether `ethtool -m` read something of a module: a decoded field, a hex
// dump, or an error of the module itself (I/O error). A driver that does not implement module
// EEPROM reads at all ("Operation not supported": a virtio or other non-RDMA NIC) read nothing.
func moduleRead(m *facts.Module) bool {
	if m == nil {
		return false
	}
	return m.Identifier != "" || m.IdentifierCode != "" || m.VendorName != "" ||
		m.Unreadable != "" && !strings.Contains(m.Unreadable, "not supported")
}

// ibVFs reports whether a netdev's `ip link` lists VFs with InfiniBand node or port GUIDs
// (iproute2 prints NODE_GUID/PORT_GUID only for IB VFs), even all-zero ones.
func ibVFs(nd facts.Netdev) bool {
	for _, vf := range nd.VFs {
		if vf.NodeGUID != "" || vf.PortGUID != "" {
			return true
		}
	}
	return false
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
