// Package summary takes from one node's Snapshot what the fleet rules compare across nodes
// (facts.NodeSummary): devices with their model, PSID, firmware and ports, LINK_TYPE, IPoIB
// mode and MTU, driver and kernel versions, key sysctls, the memlock limit and the IRQ spread.
// Every value keeps the evidence line it was read from; a fact the snapshot lacks stays
// absent. Joins are the snapshot's own (PCI address equality), never guessed.
package summary

import (
	"sort"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// KeySysctls are the sysctls a summary keeps: those the node rules judge (vm.max_map_count,
// the socket buffer limits) and the other RDMA/IPoIB tuning values of mlnx-tools
// sysctl_perf_tuning (https://github.com/Mellanox/mlnx-tools), which sites set fleet-wide.
var KeySysctls = []string{
	"kernel.numa_balancing",
	"net.core.netdev_max_backlog",
	"net.core.rmem_default",
	"net.core.rmem_max",
	"net.core.wmem_default",
	"net.core.wmem_max",
	"net.ipv4.tcp_rmem",
	"net.ipv4.tcp_wmem",
	"vm.max_map_count",
	"vm.zone_reclaim_mode",
}

// errorCounters are the port counters a summary keeps (facts.PortErrorCounters).
var errorCounters = facts.PortErrorCounters

// Summarize returns the summary of snapshot s under the fleet label host. It is pure: it reads
// only s, and shares no maps or slices with it that a caller might modify later.
func Summarize(s *facts.Snapshot, host string) facts.NodeSummary {
	n := facts.NodeSummary{
		Host:      host,
		Hostname:  s.Host.Hostname,
		Available: append([]string{}, s.Available...),
		Kernel:    s.Host.Kernel,
		Devices:   devices(s),
		IPoIB:     ipoib(s),
		Drivers:   drivers(s),
		Memlock:   memlock(s.Host.Memlock),
	}
	for _, k := range []string{"kernel", "hostname"} {
		if ev, ok := s.Host.Evidence[k]; ok {
			n.Evidence.Set(k, ev)
		}
	}
	for _, k := range KeySysctls {
		v, ok := s.Host.Sysctls[k]
		if !ok {
			continue
		}
		if n.Sysctls == nil {
			n.Sysctls = map[string]string{}
		}
		n.Sysctls[k] = v
		if ev, ok := s.Host.Evidence["sysctls."+k]; ok {
			n.Evidence.Set("sysctls."+k, ev)
		}
	}
	return n
}

func memlock(m *facts.MemlockLimit) *facts.MemlockLimit {
	if m == nil {
		return nil
	}
	c := *m
	if m.SoftKiB != nil {
		v := *m.SoftKiB
		c.SoftKiB = &v
	}
	return &c
}

// ipoib lists the first capture of each IPoIB netdev.
func ipoib(s *facts.Snapshot) []facts.SummaryIPoIB {
	out := []facts.SummaryIPoIB{}
	for _, nd := range s.Netdevs {
		if nd.Kind != facts.NetdevIPoIB || nd.Capture != "" {
			continue
		}
		ip := facts.SummaryIPoIB{Name: nd.Name, Mode: nd.IPoIBMode, MTU: facts.CopyOf(nd.MTU), Parent: nd.Parent,
			PKey: nd.PKey, Device: nd.RDMADevice, Port: facts.CopyOf(nd.RDMAPort)}
		pick(&ip.Evidence, nd.Evidence, "mode", "ipoib_mode")
		pick(&ip.Evidence, nd.Evidence, "mtu", "mtu")
		out = append(out, ip)
	}
	return out
}

// drivers lists the module versions: modinfo's version: first, then ethtool -i's driver
// version of the first netdev (by name) that names the driver.
func drivers(s *facts.Snapshot) []facts.SummaryDriver {
	seen := map[string]bool{}
	out := []facts.SummaryDriver{}
	for _, mi := range s.Host.ModuleInfo {
		if mi.Version == "" || seen[mi.Name] {
			continue
		}
		seen[mi.Name] = true
		out = append(out, facts.SummaryDriver{Name: mi.Name, Version: mi.Version, Evidence: mi.Evidence["version"]})
	}
	for _, nd := range s.Netdevs {
		if nd.Driver == "" || nd.DriverVersion == "" || seen[nd.Driver] {
			continue
		}
		seen[nd.Driver] = true
		out = append(out, facts.SummaryDriver{Name: nd.Driver, Version: nd.DriverVersion, Evidence: nd.Evidence["driver_version"]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// pick copies the evidence of field from into to under key, when there is one.
func pick(to *facts.EvidenceMap, from facts.EvidenceMap, key, field string) {
	if ev, ok := from[field]; ok {
		to.Set(key, ev)
	}
}
