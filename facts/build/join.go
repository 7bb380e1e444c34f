package build

import (
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// join links facts that different tools report about the same hardware:
// RDMA device <-> PCI function <-> netdev <-> mstconfig device <-> NUMA node <-> IRQs.
// It only fills what is missing and never guesses between several candidates.
func join(s *facts.Snapshot) {
	joinMSTPaths(s)
	joinDevicePCI(s)
	joinNetdevs(s)
	joinNUMA(s)
	joinIRQs(s)
}

// mstPCI maps /dev/mst names to PCI addresses from `mst status`.
func mstPCI(s *facts.Snapshot) map[string]string {
	m := map[string]string{}
	for _, d := range s.MSTDevices {
		if d.PCIAddress != "" {
			m[d.Path] = NormalizeBDF(d.PCIAddress)
		}
	}
	return m
}

// resolvePCI turns a tool's device argument into a PCI address: a BDF as is, an mst path via mst status.
func resolvePCI(dev string, mst map[string]string) string {
	if a := NormalizeBDF(dev); fullBDFRe.MatchString(a) && len(a) == 12 {
		return a
	}
	if a, ok := mst[dev]; ok {
		return a
	}
	// sos and the corpus mangle "/dev/mst/mt4115_pciconf0" to ".dev.mst.mt4115_pciconf0".
	if a, ok := mst[strings.ReplaceAll(dev, ".", "/")]; ok {
		return a
	}
	return ""
}

func joinMSTPaths(s *facts.Snapshot) {
	mst := mstPCI(s)
	for i := range s.NVConfig {
		if s.NVConfig[i].PCIAddress == "" {
			s.NVConfig[i].PCIAddress = resolvePCI(s.NVConfig[i].Device, mst)
		}
	}
	for i := range s.Firmware {
		if s.Firmware[i].PCIAddress == "" {
			s.Firmware[i].PCIAddress = resolvePCI(s.Firmware[i].Device, mst)
		}
	}
	for i := range s.MlxLink {
		if s.MlxLink[i].PCIAddress == "" {
			s.MlxLink[i].PCIAddress = resolvePCI(s.MlxLink[i].Device, mst)
		}
	}
	for _, d := range s.MSTDevices {
		if d.RDMADevice == "" || d.PCIAddress == "" {
			continue
		}
		for i := range s.Devices {
			if s.Devices[i].Name == d.RDMADevice && s.Devices[i].PCIAddress == "" {
				s.Devices[i].PCIAddress = NormalizeBDF(d.PCIAddress)
			}
		}
	}
}

// joinDevicePCI gives an RDMA device its PCI address through its netdev (ethtool -i bus-info),
// or on evidence that it is one of the Mellanox physical functions (joinPCIByEvidence); being
// the only device and the only function of the node is not such evidence. It then copies PF/VF
// from the PCI function.
func joinDevicePCI(s *facts.Snapshot) {
	owners := map[string]int{} // netdev -> how many devices claim it
	for _, d := range s.Devices {
		seen := map[string]bool{}
		for _, p := range d.Ports {
			if p.Netdev != "" && !seen[p.Netdev] {
				seen[p.Netdev] = true
				owners[p.Netdev]++
			}
		}
	}
	for i := range s.Devices {
		d := &s.Devices[i]
		if d.PCIAddress != "" {
			continue
		}
		for _, p := range d.Ports {
			if owners[p.Netdev] != 1 {
				continue // two devices claim this netdev (e.g. a VF and its PF): do not guess
			}
			if n := findNetdev(s, p.Netdev); n != nil && n.PCIAddress != "" {
				d.PCIAddress = NormalizeBDF(n.PCIAddress)
				break
			}
		}
	}
	joinPCIByEvidence(s)
	for i := range s.Devices {
		d := &s.Devices[i]
		if f := findPCI(s, d.PCIAddress); f != nil {
			if d.Function == "" && f.VF != nil {
				d.Function = "PF"
				if *f.VF {
					d.Function = "VF"
				}
			}
		}
	}
}

// mellanoxPFs lists the distinct PCI addresses of Mellanox physical functions seen by lspci,
// mstconfig, flint, mlxlink or mst status. Functions of one multi-port adapter count once
// (same bus and device).
func mellanoxPFs(s *facts.Snapshot) []string {
	seen := map[string]string{}
	add := func(a string) {
		if a == "" {
			return
		}
		a = NormalizeBDF(a)
		if len(a) < 10 {
			return
		}
		key := a[:len(a)-2] // domain:bus:dev without the function
		if prev, ok := seen[key]; !ok || a < prev {
			seen[key] = a
		}
	}
	for _, f := range s.PCI {
		if f.VendorID == "15b3" || strings.Contains(f.Name, "Mellanox") {
			if f.VF == nil || !*f.VF {
				add(f.Address)
			}
		}
	}
	for _, n := range s.NVConfig {
		add(n.PCIAddress)
	}
	for _, f := range s.Firmware {
		add(f.PCIAddress)
	}
	for _, m := range s.MSTDevices {
		add(m.PCIAddress)
	}
	out := make([]string, 0, len(seen))
	for _, a := range seen {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

func countDistinctDevices(s *facts.Snapshot) int {
	names := map[string]bool{}
	for _, d := range s.Devices {
		names[d.Name] = true
	}
	return len(names)
}

// joinNetdevs links ports and netdevs both ways (ibdev2netdev, GIDs, bus-info).
func joinNetdevs(s *facts.Snapshot) {
	for i := range s.Devices {
		d := &s.Devices[i]
		for j := range d.Ports {
			p := &d.Ports[j]
			if p.Netdev == "" {
				p.Netdev = gidNetdev(p.GIDs)
			}
			if n := findNetdev(s, p.Netdev); n != nil && n.RDMADevice == "" {
				n.RDMADevice = d.Name
				num := p.Number
				n.RDMAPort = &num
			}
		}
	}
	for i := range s.Netdevs {
		n := &s.Netdevs[i]
		if n.RDMADevice == "" || n.RDMAPort == nil {
			continue
		}
		for j := range s.Devices {
			d := &s.Devices[j]
			if d.Name != n.RDMADevice || d.Capture != "" {
				continue
			}
			for k := range d.Ports {
				if d.Ports[k].Number == *n.RDMAPort && d.Ports[k].Netdev == "" {
					d.Ports[k].Netdev = n.Name
				}
			}
		}
	}
}

func gidNetdev(gids []facts.GID) string {
	for _, g := range gids {
		if g.Netdev != "" {
			return g.Netdev
		}
	}
	return ""
}

// joinNUMA copies NUMA node and local CPUs between a device, its PCI function and its netdevs.
func joinNUMA(s *facts.Snapshot) {
	for i := range s.Devices {
		d := &s.Devices[i]
		if f := findPCI(s, d.PCIAddress); f != nil && d.NUMANode == nil && f.NUMANode != nil {
			d.NUMANode = f.NUMANode
		}
		for _, p := range d.Ports {
			n := findNetdev(s, p.Netdev)
			if n == nil {
				continue
			}
			if d.NUMANode == nil && n.NUMANode != nil {
				d.NUMANode = n.NUMANode
			}
			if d.LocalCPUList == "" && n.LocalCPUList != "" {
				d.LocalCPUList = n.LocalCPUList
			}
		}
	}
	for i := range s.Netdevs {
		n := &s.Netdevs[i]
		if f := findPCI(s, n.PCIAddress); f != nil && n.NUMANode == nil && f.NUMANode != nil {
			n.NUMANode = f.NUMANode
		}
	}
}

// joinIRQs takes the PCI address from "mlx5_comp3@pci:0000:81:00.0".
func joinIRQs(s *facts.Snapshot) {
	for i := range s.IRQs {
		q := &s.IRQs[i]
		if q.PCIAddress == "" {
			if m := fullBDFRe.FindString(q.Name); m != "" {
				q.PCIAddress = m
			}
		}
	}
}

func findNetdev(s *facts.Snapshot, name string) *facts.Netdev {
	if name == "" {
		return nil
	}
	for i := range s.Netdevs {
		if s.Netdevs[i].Name == name {
			return &s.Netdevs[i]
		}
	}
	return nil
}

func findPCI(s *facts.Snapshot, addr string) *facts.PCIFunction {
	if addr == "" {
		return nil
	}
	addr = NormalizeBDF(addr)
	for i := range s.PCI {
		if s.PCI[i].Address == addr {
			return &s.PCI[i]
		}
	}
	return nil
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
