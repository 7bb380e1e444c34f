package fabricview

import (
	"sort"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Fabric returns the merged view, sorted; nil when no snapshot added any fabric record (an
// iblinkinfo, ibqueryerrors, ibdiagnet2, perfquery, ibnetdiscover or sminfo record, or an
// sminfo refusal). The view stays usable: more snapshots can be added and Fabric called again.
func (v *View) Fabric() *facts.FleetFabric {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.ports) == 0 && len(v.nodes) == 0 && len(v.sms) == 0 && !v.anyRefusal() && v.droppedPorts == 0 {
		return nil
	}
	f := &facts.FleetFabric{DroppedPorts: v.droppedPorts, DroppedLinks: v.droppedLinks}
	byRoot := v.assemblePorts()
	ports := make([]*facts.FleetFabricPort, 0, len(byRoot))
	for _, p := range byRoot {
		ports = append(ports, p)
	}
	sort.Slice(ports, func(i, j int) bool { return ports[i].ID < ports[j].ID })
	f.Links = v.assembleLinks(byRoot)
	subnets(ports, f.Links)
	for _, p := range ports {
		f.Ports = append(f.Ports, *p)
	}
	f.Nodes = v.assembleNodes(f.Ports)
	f.Hosts = v.assembleHosts(byRoot, f.Links)
	f.SMViews = v.assembleSMs(byRoot, f.Ports)
	return f
}

func (v *View) anyRefusal() bool {
	for _, h := range v.hosts {
		if len(h.refused) > 0 {
			return true
		}
	}
	return false
}

// assemblePorts merges the records of every name of one port, by the root of its names.
func (v *View) assemblePorts() map[string]*facts.FleetFabricPort {
	groups := map[string][]orderedRecord{}
	dropped := map[string]int{}
	for k, acc := range v.ports {
		r := v.names.find(k)
		groups[r] = append(groups[r], acc.recs...)
		dropped[r] += acc.dropped
	}
	type owner struct {
		host string
		port facts.FabricHostPort
	}
	owners := map[string][]owner{}
	for host, h := range v.hosts {
		for _, hp := range h.ports {
			if len(hp.keys) > 0 {
				r := v.names.find(hp.keys[0])
				owners[r] = append(owners[r], owner{host, hp.port})
			}
		}
	}
	out := make(map[string]*facts.FleetFabricPort, len(groups))
	for root, recs := range groups {
		sort.Slice(recs, func(i, j int) bool {
			if recs[i].order != recs[j].order {
				return recs[i].order < recs[j].order
			}
			return recs[i].keys[0] < recs[j].keys[0]
		})
		if len(recs) > MaxViews {
			dropped[root] += len(recs) - MaxViews
			recs = recs[:MaxViews]
		}
		p := &facts.FleetFabricPort{Port: recs[0].port, ViewsDropped: dropped[root]}
		for _, r := range recs {
			first(&p.NodeGUID, r.nodeGUID)
			first(&p.PortGUID, r.portGUID)
			first(&p.NodeType, r.nodeType)
			first(&p.NodeDescription, r.nodeDescription)
			first(&p.Label, r.label)
			if p.LID == nil && r.lid != nil {
				p.LID = r.lid
			}
			p.Views = append(p.Views, r.view)
		}
		if hps := owners[root]; len(hps) > 0 {
			// The host's own device names its node and port GUID: the port is a CA's.
			sort.Slice(hps, func(i, j int) bool { return hps[i].host < hps[j].host })
			for _, hp := range hps {
				p.Hosts = append(p.Hosts, hp.host)
				first(&p.NodeGUID, hp.port.NodeGUID)
				first(&p.PortGUID, hp.port.PortGUID)
			}
			p.Hosts = compactStrings(p.Hosts)
			first(&p.NodeType, "CA")
		}
		if p.NodeType == "" && p.NodeGUID != "" {
			if n := v.nodes[p.NodeGUID]; n != nil {
				for _, r := range n.recs {
					first(&p.NodeType, r.Type)
				}
			}
		}
		g := p.NodeGUID
		if g == "" {
			g = p.PortGUID
		}
		p.ID = key(g, p.Port)
		out[root] = p
	}
	return out
}

func first(dst *string, s string) {
	if *dst == "" {
		*dst = s
	}
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// assembleLinks resolves each link's ends to their ports and merges the links of one pair.
func (v *View) assembleLinks(byRoot map[string]*facts.FleetFabricPort) []facts.FleetLink {
	merged := map[[2]string]*facts.FleetLink{}
	for k, acc := range v.links {
		a, b := byRoot[v.names.find(k[0])], byRoot[v.names.find(k[1])]
		if a == nil || b == nil || a.ID == b.ID {
			continue
		}
		if b.ID < a.ID {
			a, b = b, a
		}
		mk := [2]string{a.ID, b.ID}
		l := merged[mk]
		if l == nil {
			l = &facts.FleetLink{A: a.ID, B: b.ID}
			merged[mk] = l
		}
		for _, e := range acc.ev {
			l.Evidence, _ = insertEvidence(l.Evidence, e)
		}
	}
	out := make([]facts.FleetLink, 0, len(merged))
	for _, l := range merged {
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].A != out[j].A {
			return out[i].A < out[j].A
		}
		return out[i].B < out[j].B
	})
	return out
}

// subnets sets each port's Subnet: the lowest port ID of the ports connected to it by links
// and by belonging to one switch.
func subnets(ports []*facts.FleetFabricPort, links []facts.FleetLink) {
	u := unionFind{}
	switches := map[string]string{}
	for _, p := range ports {
		u.add(p.ID)
		if p.NodeType == "Switch" && p.NodeGUID != "" {
			if other, ok := switches[p.NodeGUID]; ok {
				u.union(other, p.ID)
			} else {
				switches[p.NodeGUID] = p.ID
			}
		}
	}
	for _, l := range links {
		u.union(l.A, l.B)
	}
	for _, p := range ports {
		p.Subnet = u.find(p.ID) // union keeps the lower name as root
	}
}

// assembleNodes lists the nodes the captures named and the nodes of the ports, by GUID.
func (v *View) assembleNodes(ports []facts.FleetFabricPort) []facts.FleetFabricNode {
	out := map[string]*facts.FleetFabricNode{}
	for g, acc := range v.nodes {
		n := &facts.FleetFabricNode{GUID: g}
		for _, r := range acc.recs {
			first(&n.Type, r.Type)
			first(&n.Description, r.Description)
			first(&n.PSID, r.PSID)
			first(&n.FirmwareVersion, r.FirmwareVersion)
			if n.LID == nil {
				n.LID = r.LID
			}
			if n.Ports == nil {
				n.Ports = r.Ports
			}
			if n.DeviceID == nil {
				n.DeviceID = r.DeviceID
			}
			n.SeenBy = append(n.SeenBy, r.SeenBy...)
		}
		out[g] = n
	}
	for _, p := range ports {
		if p.NodeGUID == "" {
			continue
		}
		n := out[p.NodeGUID]
		if n == nil {
			n = &facts.FleetFabricNode{GUID: p.NodeGUID}
			out[p.NodeGUID] = n
		}
		first(&n.Type, p.NodeType)
		first(&n.Description, p.NodeDescription)
		for _, view := range p.Views {
			if len(n.SeenBy) >= MaxViews {
				break
			}
			if e, ok := firstEvidence(view); ok && !seenHost(n.SeenBy, e.Host) {
				n.SeenBy, _ = insertEvidence(n.SeenBy, e)
			}
		}
	}
	list := make([]facts.FleetFabricNode, 0, len(out))
	for _, n := range out {
		list = append(list, *n)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].GUID < list[j].GUID })
	return list
}

func seenHost(evs []facts.FabricEvidence, host string) bool {
	for _, e := range evs {
		if e.Host == host {
			return true
		}
	}
	return false
}

// firstEvidence is a view's earliest evidence line.
func firstEvidence(view facts.FabricPortView) (facts.FabricEvidence, bool) {
	var best facts.FabricEvidence
	found := false
	for _, e := range view.Evidence {
		if !found || evidenceLess(e, best) {
			best, found = e, true
		}
	}
	return best, found
}

// assembleHosts maps each host's ports to the fabric: the fabric port with the port's GUID and
// number, and the far end of that port's one link.
func (v *View) assembleHosts(byRoot map[string]*facts.FleetFabricPort, links []facts.FleetLink) []facts.FabricHost {
	peers := map[string][]string{}
	for _, l := range links {
		peers[l.A] = append(peers[l.A], l.B)
		peers[l.B] = append(peers[l.B], l.A)
	}
	names := make([]string, 0, len(v.hosts))
	for h := range v.hosts {
		names = append(names, h)
	}
	sort.Strings(names)
	var out []facts.FabricHost
	same := sharer[facts.FabricHostPort]{}
	sameInputs := sharer[string]{}
	for _, name := range names {
		h := v.hosts[name]
		fh := facts.FabricHost{Host: name, Inputs: compactStrings(sortedCopy(h.inputs)), SMRefusals: h.refused}
		for _, hp := range h.ports {
			p := hp.port
			if len(hp.keys) > 0 {
				if fp := byRoot[v.names.find(hp.keys[0])]; fp != nil {
					p.FabricPort, p.Subnet = fp.ID, fp.Subnet
					if ps := peers[fp.ID]; len(ps) == 1 {
						p.Peer = ps[0]
					}
				}
			}
			fh.Ports = append(fh.Ports, p)
		}
		sort.Slice(fh.Ports, func(i, j int) bool {
			if fh.Ports[i].Device != fh.Ports[j].Device {
				return fh.Ports[i].Device < fh.Ports[j].Device
			}
			return fh.Ports[i].Port < fh.Ports[j].Port
		})
		sort.Slice(fh.SMRefusals, func(i, j int) bool { return evidenceLess(fh.SMRefusals[i], fh.SMRefusals[j]) })
		if len(fh.Ports) == 0 && len(fh.Inputs) == 0 && len(fh.SMRefusals) == 0 {
			continue
		}
		fh.Ports, fh.Inputs = same.share(fh.Ports), sameInputs.share(fh.Inputs)
		out = append(out, fh)
	}
	return out
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// assembleSMs places each sminfo answer in the subnet of the local port it was sent from, or
// else of the SM's own port GUID when the fabric has it.
func (v *View) assembleSMs(byRoot map[string]*facts.FleetFabricPort, ports []facts.FleetFabricPort) []facts.FabricSMView {
	byGUID := map[string]string{}
	for _, p := range ports {
		for _, g := range []string{p.PortGUID, p.NodeGUID} {
			if g == "" {
				continue
			}
			if s, ok := byGUID[g]; ok && s != p.Subnet {
				byGUID[g] = "" // a CA's ports in two subnets: the GUID does not say which
				continue
			}
			byGUID[g] = p.Subnet
		}
	}
	out := make([]facts.FabricSMView, 0, len(v.sms))
	for _, r := range v.sms {
		sm := r.view
		if len(r.from) > 0 {
			if fp := byRoot[v.names.find(r.from[0])]; fp != nil {
				sm.Subnet = fp.Subnet
			}
		}
		if sm.Subnet == "" && sm.SMGUID != "" {
			sm.Subnet = byGUID[sm.SMGUID]
		}
		out = append(out, sm)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Host != b.Host {
			return a.Host < b.Host
		}
		if a.Device != b.Device {
			return a.Device < b.Device
		}
		if (a.Port == nil) != (b.Port == nil) {
			return a.Port == nil
		}
		if a.Port != nil && *a.Port != *b.Port {
			return *a.Port < *b.Port
		}
		return evidenceLess(a.Evidence, b.Evidence)
	})
	return out
}
