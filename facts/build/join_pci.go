package build

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// joinPCIByEvidence gives a device that no link names (sysfs device link, ibdev2netdev, ethtool
// bus-info, mst status -v) the address of a Mellanox physical function only on positive
// evidence that they are one card, and only when that evidence picks one function for one
// device: the PCI device id is the CA type's (MT4115 = 0x1013, lspci -nn or the mst device
// name mt4115_pciconf0), the udev name of the device or its netdevs encodes the function's bus
// and slot (ibp4s0 = bus 4 slot 0, enp94s0f1np1 = bus 94, decimal), or the node GUID is the
// firmware's base GUID (flint q). Any disagreement rules the function out. Where the one device
// and the one function of a node are not joined (the guess this replaces), the reason is
// recorded as an "unjoined" source, so the report says why its commands keep `<pci>`.
func joinPCIByEvidence(s *facts.Snapshot) {
	var devs []*facts.Device
	for i := range s.Devices {
		if d := &s.Devices[i]; d.PCIAddress == "" && d.Capture == "" {
			devs = append(devs, d)
		}
	}
	pfs := mellanoxPFs(s)
	fits := make([][]string, len(devs)) // devs[i] -> the functions it fits
	why := make([]map[string]pciMatch, len(devs))
	takers := map[string]int{} // function -> how many devices fit it
	for i, d := range devs {
		why[i] = map[string]pciMatch{}
		for _, a := range pfs {
			m := matchPCI(s, d, a)
			why[i][a] = m
			if len(m.agree) > 0 && len(m.disagree) == 0 {
				fits[i] = append(fits[i], a)
				takers[a]++
			}
		}
	}
	for i, d := range devs {
		if len(fits[i]) == 1 && takers[fits[i][0]] == 1 {
			a := fits[i][0]
			d.PCIAddress = a
			d.Evidence.Set("pci_address", facts.Evidence{Source: "join", Text: a + ": " + strings.Join(why[i][a].agree, "; ")})
			continue
		}
		if len(devs) == 1 && len(pfs) == 1 && countDistinctDevices(s) == 1 {
			s.Sources = append(s.Sources, unjoined(d, pfs[0], why[i][pfs[0]]))
		}
	}
}

// unjoined is the source that says why device d was not joined to the only function a.
func unjoined(d *facts.Device, a string, m pciMatch) facts.Source {
	reason := "nothing links them (no sysfs device link, ibdev2netdev, mst status -v, matching GUID, PCI device id or PCI name)"
	if len(m.disagree) > 0 {
		reason = strings.Join(m.disagree, "; ")
	}
	return facts.Source{Name: "join", Origin: d.Name, Status: facts.StatusUnjoined,
		Error: fmt.Sprintf("PCI address unknown: not joined to %s, the only Mellanox physical function, because %s", a, reason)}
}

// pciMatch holds what agrees and what disagrees between a device and a PCI function, in words.
type pciMatch struct{ agree, disagree []string }

func matchPCI(s *facts.Snapshot, d *facts.Device, addr string) pciMatch {
	var m pciMatch
	if want, ok := caDeviceID(d.CAType); ok {
		for _, id := range deviceIDs(s, addr) {
			if id == want {
				m.agree = append(m.agree, fmt.Sprintf("its PCI device id 0x%s is the %s's", id, d.CAType))
			} else {
				m.disagree = append(m.disagree, fmt.Sprintf("its PCI device id 0x%s is not the %s's (0x%s)", id, d.CAType, want))
			}
		}
	}
	for _, name := range deviceNames(d) {
		loc, ok := nameLocation(name)
		if !ok {
			continue
		}
		if got := bdfOf(addr); got.bus == loc.bus && got.slot == loc.slot && (loc.domain < 0 || got.domain == loc.domain) {
			m.agree = append(m.agree, fmt.Sprintf("the name %s says PCI bus %d slot %d", name, loc.bus, loc.slot))
		} else {
			m.disagree = append(m.disagree, fmt.Sprintf("the name %s says PCI bus %d (0x%02x) slot %d, %s is bus %d slot %d",
				name, loc.bus, loc.bus, loc.slot, addr, got.bus, got.slot))
		}
	}
	if g := guidDigits(d.NodeGUID); g != "" {
		for _, f := range s.Firmware {
			if NormalizeBDF(f.PCIAddress) != addr || guidDigits(f.BaseGUID) == "" {
				continue
			}
			if guidDigits(f.BaseGUID) == g {
				m.agree = append(m.agree, "its firmware's base GUID is the node GUID "+d.NodeGUID)
			} else {
				m.disagree = append(m.disagree, fmt.Sprintf("its firmware's base GUID %s is not the node GUID %s", f.BaseGUID, d.NodeGUID))
			}
		}
	}
	return m
}

// caDeviceID is the PCI device id, 4 hex digits, a CA type names: "MT4115" -> "1013".
func caDeviceID(caType string) (string, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(caType), "MT"))
	if err != nil || n <= 0 || n > 0xffff {
		return "", false
	}
	return fmt.Sprintf("%04x", n), true
}

// mstTypeRe finds the decimal device id in an mst device name: /dev/mst/mt4115_pciconf0.
var mstTypeRe = lazyregexp.New(`mt([0-9]{4,5})_`)

// deviceIDs lists the PCI device ids known for the function at addr (same bus and slot): from
// lspci -nn, and from the names of the mst devices mst status gives that address.
func deviceIDs(s *facts.Snapshot, addr string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(id string) {
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, f := range s.PCI {
		if sameSlot(f.Address, addr) && (f.VF == nil || !*f.VF) {
			add(strings.ToLower(f.DeviceID))
		}
	}
	for _, d := range s.MSTDevices {
		if sameSlot(d.PCIAddress, addr) {
			if m := mstTypeRe.FindStringSubmatch(strings.ToLower(d.Path)); m != nil {
				id, _ := caDeviceID(m[1])
				add(id)
			}
		}
	}
	return out
}

func sameSlot(a, b string) bool {
	a, b = NormalizeBDF(a), NormalizeBDF(b)
	return len(a) == 12 && len(b) == 12 && a[:10] == b[:10]
}

// deviceNames are the device's name and its ports' netdevs, which udev may have named by slot.
func deviceNames(d *facts.Device) []string {
	names := []string{d.Name}
	for _, p := range d.Ports {
		if p.Netdev != "" && p.Netdev != d.Name {
			names = append(names, p.Netdev)
		}
	}
	return names
}

// pciLocation is a domain, bus and slot (device) number; domain -1 when a name does not say.
type pciLocation struct{ domain, bus, slot int }

// slotNameRe matches udev "path" names (systemd.net-naming-scheme, rdma-core's NAME_PCI):
// a prefix, [P<domain>]p<bus>s<slot>[f<function>] and a port suffix, all numbers decimal.
var slotNameRe = lazyregexp.New(`^(?:ib|roce|iw|en|eth|sl|wl|ww)(?:P([0-9]+))?p([0-9]+)s([0-9]+)(?:f[0-9]+)?(?:(?:np|n|d|v)[0-9a-z]*)?$`)

// nameLocation reads the PCI location a udev path name encodes: "ibp4s0" -> bus 4 slot 0.
func nameLocation(name string) (pciLocation, bool) {
	m := slotNameRe.FindStringSubmatch(name)
	if m == nil {
		return pciLocation{}, false
	}
	loc := pciLocation{domain: -1}
	if m[1] != "" {
		loc.domain, _ = strconv.Atoi(m[1])
	}
	loc.bus, _ = strconv.Atoi(m[2])
	loc.slot, _ = strconv.Atoi(m[3])
	return loc, true
}

// bdfOf splits "0000:06:00.0" into its numbers.
func bdfOf(addr string) pciLocation {
	var l pciLocation
	var fn int
	fmt.Sscanf(NormalizeBDF(addr), "%x:%x:%x.%d", &l.domain, &l.bus, &l.slot, &fn)
	return l
}

// guidDigits is a GUID's 16 hex digits without 0x or colons; "" when unset (empty or all zero).
func guidDigits(g string) string {
	g = strings.ToLower(strings.TrimPrefix(strings.ReplaceAll(g, ":", ""), "0x"))
	if strings.Trim(g, "0") == "" {
		return ""
	}
	return fmt.Sprintf("%016s", g)
}
