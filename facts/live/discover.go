package live

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Inventory is what the gatherer found under the root before running anything.
type Inventory struct {
	// Devices are the entries of sys/class/infiniband, sorted by name.
	Devices []RDMADevice
	// Netdevs are the entries of sys/class/net except bonding_masters, sorted.
	Netdevs []NetdevInfo
	// PCI are the Mellanox (vendor 0x15b3) functions of sys/bus/pci/devices, sorted by address.
	PCI []PCIInfo
}

// RDMADevice is one directory of sys/class/infiniband.
type RDMADevice struct {
	Name  string
	Ports []PortInfo
}

// PortInfo is one port of an RDMA device as sysfs describes it.
type PortInfo struct {
	Number int
	// LinkLayer is sysfs link_layer, "InfiniBand" or "Ethernet".
	LinkLayer string
	// State is sysfs state, e.g. "4: ACTIVE".
	State string
}

// ActiveIB reports whether fabric queries (iblinkinfo, sminfo, perfquery) make sense on the port:
// sos runs them only for InfiniBand ports whose state ends in ": ACTIVE".
func (p PortInfo) ActiveIB() bool {
	return p.LinkLayer == "InfiniBand" && strings.HasSuffix(p.State, ": ACTIVE")
}

// NetdevInfo is one entry of sys/class/net.
type NetdevInfo struct {
	Name string
	// HasDevice is true when the netdev has a device link (a PCI function or an IPoIB child),
	// i.e. ethtool has hardware to talk to.
	HasDevice bool
}

// PCIInfo is one Mellanox PCI function.
type PCIInfo struct {
	Address string
	// VF is true when the function has a physfn link (an SR-IOV virtual function).
	VF bool
}

// PFs returns the physical functions' addresses.
func (inv Inventory) PFs() []string {
	var out []string
	for _, f := range inv.PCI {
		if !f.VF {
			out = append(out, f.Address)
		}
	}
	return out
}

// Discover lists RDMA devices, netdevs and Mellanox PCI functions under root. Missing
// directories give empty lists: a node without RDMA hardware is a valid answer.
func Discover(root string) Inventory {
	var inv Inventory
	ib := filepath.Join(root, "sys/class/infiniband")
	for _, dev := range listDirs(ib) {
		d := RDMADevice{Name: dev}
		ports := filepath.Join(ib, dev, "ports")
		for _, p := range listDirs(ports) {
			n, err := strconv.Atoi(p)
			if err != nil {
				continue
			}
			d.Ports = append(d.Ports, PortInfo{
				Number:    n,
				LinkLayer: readTrim(filepath.Join(ports, p, "link_layer")),
				State:     readTrim(filepath.Join(ports, p, "state")),
			})
		}
		sort.Slice(d.Ports, func(i, j int) bool { return d.Ports[i].Number < d.Ports[j].Number })
		inv.Devices = append(inv.Devices, d)
	}
	net := filepath.Join(root, "sys/class/net")
	for _, n := range listDirs(net) {
		_, err := os.Stat(filepath.Join(net, n, "device"))
		inv.Netdevs = append(inv.Netdevs, NetdevInfo{Name: n, HasDevice: err == nil})
	}
	pci := filepath.Join(root, "sys/bus/pci/devices")
	for _, a := range listDirs(pci) {
		if readTrim(filepath.Join(pci, a, "vendor")) != "0x15b3" {
			continue
		}
		_, err := os.Lstat(filepath.Join(pci, a, "physfn"))
		inv.PCI = append(inv.PCI, PCIInfo{Address: a, VF: err == nil})
	}
	return inv
}

// listDirs returns the sorted names of the entries of dir that are directories or links to
// directories (sysfs class entries are symlinks).
func listDirs(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		st, err := os.Stat(filepath.Join(dir, e.Name()))
		if err != nil || !st.IsDir() {
			continue
		}
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func readTrim(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
