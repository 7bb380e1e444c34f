package gather

import (
	"sort"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// join links facts that different tools report about the same hardware:
// RDMA device <-> PCI function <-> netdev <-> mstconfig device <-> NUMA node <-> IRQs.
func join(s *facts.Snapshot) {
}

func sortSnapshot(s *facts.Snapshot) {
	sort.SliceStable(s.Devices, func(i, j int) bool {
		if s.Devices[i].Name != s.Devices[j].Name {
			return s.Devices[i].Name < s.Devices[j].Name
		}
		return s.Devices[i].Capture < s.Devices[j].Capture
	})
	for i := range s.Devices {
		ps := s.Devices[i].Ports
		sort.SliceStable(ps, func(a, b int) bool { return ps[a].Number < ps[b].Number })
	}
	sort.SliceStable(s.Netdevs, func(i, j int) bool { return s.Netdevs[i].Name < s.Netdevs[j].Name })
	sort.SliceStable(s.PCI, func(i, j int) bool { return s.PCI[i].Address < s.PCI[j].Address })
	sort.SliceStable(s.IRQs, func(i, j int) bool { return s.IRQs[i].Number < s.IRQs[j].Number })
}
