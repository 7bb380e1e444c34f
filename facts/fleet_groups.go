package facts

import "sort"

// FleetMinNodes is how many nodes must show a fact for a fleet group of nodes to be
// available: a comparison needs two.
const FleetMinNodes = 2

// FleetGroup is a fact group of the fleet document, what fleet rules list under `requires`
// (docs/rules-contract.md): available when at least FleetMinNodes node summaries hold the fact
// (Node), or, for a group about the merged fabric, when the document holds it (Doc).
type FleetGroup struct {
	// Title names the fact for a person ("firmware versions").
	Title string
	// Node reports whether one node's summary holds the fact; nil for a Doc group.
	Node func(*NodeSummary) bool
	// Doc reports whether the fleet document holds the fact; nil for a Node group.
	Doc func(*Fleet) bool
	// NodeGroups are the node fact groups (FactGroups) that feed it: a skipped fleet rule says
	// how to get them. How says it instead for a fact no group names (the kernel release).
	NodeGroups []string
	How        string
	// Given and Unless, when set, say why nodes that hold the fleet group Given lack this one:
	// "port rates" are read from Active ports only, so a node with port states but none Active
	// has none (Unless "no port is Active"), and running ibstat again would not give them.
	Given, Unless string
}

// FleetGroups are the fleet fact groups by name. The fabric work adds its groups (about
// Fleet.Fabric) here too.
var FleetGroups = map[string]FleetGroup{
	"nodes_firmware": {Title: "firmware versions", NodeGroups: []string{"rdma_devices", "firmware_query", "ethtool_driver"},
		Node: anyDevice(func(d *SummaryDevice) bool { return d.Firmware != "" && (d.PSID != "" || d.CAType != "") })},
	"nodes_ports": {Title: "port states", NodeGroups: []string{"ib_ports"},
		Node: anyPort(func(p *SummaryPort) bool { return p.State != "" })},
	"nodes_port_rates": {Title: "port rates", NodeGroups: []string{"ib_ports"}, Given: "nodes_ports", Unless: "no port is Active",
		Node: anyPort(func(p *SummaryPort) bool { return p.State == "Active" && (p.RateGbps != nil || p.WidthLanes != nil) })},
	"nodes_link_type": {Title: "LINK_TYPE settings", NodeGroups: []string{"nvconfig"},
		Node: anyDevice(func(d *SummaryDevice) bool { return len(d.LinkTypes) > 0 })},
	"nodes_ipoib": {Title: "IPoIB interfaces", NodeGroups: []string{"netdevs"},
		Node: func(n *NodeSummary) bool {
			for _, ip := range n.IPoIB {
				if ip.Mode != "" || ip.MTU != nil {
					return true
				}
			}
			return false
		}},
	"nodes_kernel": {Title: "kernel releases", How: "run `uname -a` on each node (sos: sos_commands/kernel/uname_-a)",
		Node: func(n *NodeSummary) bool { return n.Kernel != "" }},
	"nodes_drivers": {Title: "driver versions", NodeGroups: []string{"modinfo", "ethtool_driver"},
		Node: func(n *NodeSummary) bool { return len(n.Drivers) > 0 }},
	"nodes_memlock": {Title: "locked-memory limits", NodeGroups: []string{"memlock"},
		Node: func(n *NodeSummary) bool { return n.Memlock != nil }},
	// The merged fabric (facts/fabricview): what one capture of a whole fabric gives is a fact of
	// the document, however many nodes had it.
	"fleet_fabric_links": {Title: "fabric links with both ends", NodeGroups: []string{"iblinkinfo", "fabric_ports", "fabric_nodes"},
		Doc: func(f *Fleet) bool { return f.Fabric != nil && len(f.Fabric.Links) > 0 }},
	"fleet_fabric_counters": {Title: "fabric port counters seen by the nodes", NodeGroups: []string{"fabric_counters", "perfquery"},
		Doc: fabricPortView(func(v *FabricPortView) bool { return len(v.Counters) > 0 })},
	"fleet_fabric_sm": {Title: "sminfo answers of the nodes", NodeGroups: []string{"sminfo"},
		Doc: func(f *Fleet) bool { return f.Fabric != nil && len(f.Fabric.SMViews) > 0 }},
	"fleet_fabric_host_ports": {Title: "nodes' ports mapped to the fabric", NodeGroups: []string{"ib_ports", "iblinkinfo", "fabric_ports", "fabric_nodes"},
		Doc: func(f *Fleet) bool {
			if f.Fabric == nil {
				return false
			}
			for _, h := range f.Fabric.Hosts {
				for _, p := range h.Ports {
					if p.FabricPort != "" {
						return true
					}
				}
			}
			return false
		}},
}

func anyDevice(f func(*SummaryDevice) bool) func(*NodeSummary) bool {
	return func(n *NodeSummary) bool {
		for i := range n.Devices {
			if f(&n.Devices[i]) {
				return true
			}
		}
		return false
	}
}

func anyPort(f func(*SummaryPort) bool) func(*NodeSummary) bool {
	return anyDevice(func(d *SummaryDevice) bool {
		for i := range d.Ports {
			if f(&d.Ports[i]) {
				return true
			}
		}
		return false
	})
}

// FleetAvailable returns the fleet groups doc holds, sorted, and per node group how many nodes
// hold it.
func FleetAvailable(doc *Fleet) ([]string, map[string]int) {
	var out []string
	count := map[string]int{}
	for name, g := range FleetGroups {
		switch {
		case g.Doc != nil:
			if g.Doc(doc) {
				out = append(out, name)
			}
		case g.Node != nil:
			for i := range doc.Nodes {
				if g.Node(&doc.Nodes[i]) {
					count[name]++
				}
			}
			if count[name] >= FleetMinNodes {
				out = append(out, name)
			}
		}
	}
	sort.Strings(out)
	return out, count
}

// fabricPortView reports whether any view of any port of the merged fabric satisfies ok.
func fabricPortView(ok func(*FabricPortView) bool) func(*Fleet) bool {
	return func(f *Fleet) bool {
		if f.Fabric == nil {
			return false
		}
		for i := range f.Fabric.Ports {
			for j := range f.Fabric.Ports[i].Views {
				if ok(&f.Fabric.Ports[i].Views[j]) {
					return true
				}
			}
		}
		return false
	}
}
