package summary

import (
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// devices summarises the RDMA devices (first capture of each name) and adds the adapters the
// firmware tools and `ethtool -i` name by PCI address that no RDMA device has. A device takes
// its own CA type, PSID and firmware first; what it lacks comes from the firmware tools
// (flint/mstflint, mlxfwmanager/mlxup), then `ethtool -i`, of the same PCI address.
func devices(s *facts.Snapshot) []facts.SummaryDevice {
	out := []facts.SummaryDevice{}
	byPCI := map[string]int{}
	for i := range s.Devices {
		d := &s.Devices[i]
		if d.Capture != "" {
			continue
		}
		sd := facts.SummaryDevice{Name: d.Name, CAType: d.CAType, PSID: d.BoardID, Firmware: d.Firmware,
			PCIAddress: d.PCIAddress, Function: d.Function, NUMANode: facts.CopyOf(d.NUMANode), Ports: ports(d)}
		pick(&sd.Evidence, d.Evidence, "ca_type", "ca_type")
		pick(&sd.Evidence, d.Evidence, "psid", "board_id")
		pick(&sd.Evidence, d.Evidence, "firmware", "firmware")
		pick(&sd.Evidence, d.Evidence, "pci_address", "pci_address")
		pick(&sd.Evidence, d.Evidence, "numa_node", "numa_node")
		if d.PCIAddress != "" {
			byPCI[d.PCIAddress] = len(out)
		}
		out = append(out, sd)
	}
	// adapter returns the summary device of a PCI address, adding one without a name when no
	// RDMA device has it.
	adapter := func(pci string) *facts.SummaryDevice {
		i, ok := byPCI[pci]
		if !ok {
			i = len(out)
			byPCI[pci] = i
			out = append(out, facts.SummaryDevice{PCIAddress: pci, Ports: []facts.SummaryPort{}})
		}
		return &out[i]
	}
	for _, fw := range s.Firmware {
		if fw.PCIAddress == "" || fw.Refusal != "" {
			continue
		}
		sd := adapter(fw.PCIAddress)
		fill(sd, &sd.DeviceType, fw.DeviceType, "device_type", fw.Evidence["device_type"])
		fill(sd, &sd.PSID, fw.PSID, "psid", fw.Evidence["psid"])
		fill(sd, &sd.Firmware, fw.Version, "firmware", fw.Evidence["version"])
	}
	for _, nv := range s.NVConfig {
		if nv.PCIAddress == "" || nv.Refusal != "" {
			continue
		}
		sd := adapter(nv.PCIAddress)
		fill(sd, &sd.DeviceType, nv.DeviceType, "device_type", nv.Evidence["device_type"])
		linkTypes(sd, nv)
	}
	byName := map[string]int{}
	for i, sd := range out {
		byName[sd.Name] = i
	}
	for _, nd := range s.Netdevs {
		if nd.Capture != "" || nd.PCIAddress == "" || nd.FirmwarePSID == "" {
			continue // only mlx drivers append the PSID: other NICs' firmware is not an adapter's
		}
		var sd *facts.SummaryDevice
		if i, ok := byName[nd.RDMADevice]; ok && nd.RDMADevice != "" && (out[i].PCIAddress == "" || out[i].PCIAddress == nd.PCIAddress) {
			// the netdev names its RDMA device (ibdev2netdev, sysfs): its bus-info is the device's
			sd = &out[i]
			if sd.PCIAddress == "" {
				sd.PCIAddress = nd.PCIAddress
				byPCI[nd.PCIAddress] = i
				pick(&sd.Evidence, nd.Evidence, "pci_address", "pci_address")
			}
		} else {
			sd = adapter(nd.PCIAddress)
		}
		fill(sd, &sd.PSID, nd.FirmwarePSID, "psid", nd.Evidence["firmware_version"])
		fill(sd, &sd.Firmware, nd.FirmwareVersion, "firmware", nd.Evidence["firmware_version"])
	}
	irqs := irqSpread(s.IRQs)
	for _, q := range s.IRQs {
		if q.PCIAddress != "" && q.Kind != "" && q.Kind != "other" {
			adapter(q.PCIAddress) // an mlx4/mlx5 vector names its adapter's function
		}
	}
	for i := range out {
		sd := &out[i]
		if sd.PCIAddress == "" {
			continue
		}
		sd.IRQ = irqs[sd.PCIAddress]
		if sd.NUMANode == nil {
			for _, fn := range s.PCI {
				if fn.Address == sd.PCIAddress && fn.NUMANode != nil {
					sd.NUMANode = facts.CopyOf(fn.NUMANode)
					pick(&sd.Evidence, fn.Evidence, "numa_node", "numa_node")
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name != "" && (out[j].Name == "" || out[i].Name < out[j].Name)
		}
		return out[i].PCIAddress < out[j].PCIAddress
	})
	return out
}

// fill sets *field to v with its evidence unless the field has a value already.
func fill(sd *facts.SummaryDevice, field *string, v, key string, ev facts.Evidence) {
	if *field != "" || v == "" {
		return
	}
	*field = v
	if ev != (facts.Evidence{}) {
		sd.Evidence.Set(key, ev)
	}
}

// linkTypes copies the LINK_TYPE_P<n> parameters of a query: the next-boot value (what the
// adapter is configured to), else the current one.
func linkTypes(sd *facts.SummaryDevice, nv facts.NVConfig) {
	for name, p := range nv.Params {
		if !strings.HasPrefix(name, "LINK_TYPE_P") {
			continue
		}
		v := p.NextBoot
		if v == "" {
			v = p.Current
		}
		if v == "" {
			continue
		}
		if _, dup := sd.LinkTypes[name]; dup {
			continue
		}
		if sd.LinkTypes == nil {
			sd.LinkTypes = map[string]string{}
		}
		sd.LinkTypes[name] = v
		sd.Evidence.Set("link_types."+name, p.Evidence)
	}
}

// ports summarises a device's ports with their error counters.
func ports(d *facts.Device) []facts.SummaryPort {
	out := make([]facts.SummaryPort, 0, len(d.Ports))
	for _, p := range d.Ports {
		sp := facts.SummaryPort{Number: p.Number, State: p.State, PhysicalState: p.PhysicalState,
			RateGbps: facts.CopyOf(p.RateGbps), WidthLanes: facts.CopyOf(p.WidthLanes), LaneSpeed: p.LaneSpeed,
			LinkLayer: p.LinkLayer, Netdev: p.Netdev}
		for _, k := range []string{"state", "physical_state", "rate_gbps", "width_lanes", "lane_speed", "link_layer"} {
			pick(&sp.Evidence, p.Evidence, k, k)
		}
		for _, c := range errorCounters {
			v, ok := p.Counters[c]
			if !ok {
				continue
			}
			if sp.Counters == nil {
				sp.Counters = map[string]int64{}
			}
			sp.Counters[c] = v
			pick(&sp.Evidence, p.Evidence, "counters."+c, "counters."+c)
		}
		out = append(out, sp)
	}
	return out
}

// irqSpread counts, per PCI address, the interrupt lines, the CPUs their affinity allows and
// the CPUs that took any of them.
func irqSpread(irqs []facts.IRQ) map[string]*facts.IRQSpread {
	type acc struct {
		spread      *facts.IRQSpread
		allowed     map[int]bool
		hasAffinity bool
		hit         map[int]bool
	}
	by := map[string]*acc{}
	var order []string
	for _, q := range irqs {
		if q.PCIAddress == "" {
			continue
		}
		a, ok := by[q.PCIAddress]
		if !ok {
			ev := q.Evidence["name"]
			a = &acc{spread: &facts.IRQSpread{Evidence: ev}, allowed: map[int]bool{}, hit: map[int]bool{}}
			by[q.PCIAddress] = a
			order = append(order, q.PCIAddress)
		}
		a.spread.IRQs++
		cpus := q.EffectiveAffinity
		if len(cpus) == 0 {
			cpus = q.SMPAffinity
		}
		if len(cpus) > 0 {
			a.hasAffinity = true
		}
		for _, c := range cpus {
			a.allowed[c] = true
		}
		for c, n := range q.PerCPU {
			if n > 0 {
				a.hit[c] = true
			}
		}
	}
	out := make(map[string]*facts.IRQSpread, len(by))
	for _, pci := range order {
		a := by[pci]
		if a.hasAffinity {
			n := len(a.allowed)
			a.spread.AffinityCPUs = &n
		}
		a.spread.InterruptedCPUs = len(a.hit)
		out[pci] = a.spread
	}
	return out
}
