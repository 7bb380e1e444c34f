package fabricview

import (
	"regexp"
	"strconv"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// topoWidthRe is the width of an ibnetdiscover link speed ("4xNDR": 4 lanes).
var topoWidthRe = regexp.MustCompile(`^(\d+)x`)

// addTopology reads the port lines of an ibnetdiscover topology: each names both ends of a
// cable by GUID (a switch's port by its node GUID, a CA's by node GUID and, where printed, its
// port GUID, which the line ties together), so each gives both ports and the link.
func (x *extract) addTopology(links []facts.TopologyLink) {
	// A port with a line of its own (in its node's block) is recorded from that line; one
	// seen only as a peer (an excerpt without its node's block) from the line that names it.
	own := map[string]bool{}
	for _, tl := range links {
		own[key(tl.NodeGUID, tl.Port)] = true
	}
	for _, tl := range links {
		if !usableGUID(tl.NodeGUID) || !usableGUID(tl.PeerNodeGUID) {
			continue
		}
		ev := x.ev(tl.Evidence)
		local := x.topologyEnd(tl.NodeGUID, tl.PortGUID, tl.Port, tl.NodeType, "", tl.LID)
		local.label = x.str(tl.Label)
		local.view = facts.FabricPortView{
			Host: x.host, PeerGUID: tl.PeerNodeGUID, PeerLID: tl.PeerLID, PeerPort: &tl.PeerPort,
			PeerDescription: x.str(tl.PeerDescription), Evidence: map[string]facts.FabricEvidence{"link": ev},
			Sources: []string{ev.Source},
		}
		if m := topoWidthRe.FindStringSubmatch(tl.Speed); m != nil {
			if w, err := strconv.Atoi(m[1]); err == nil {
				local.view.WidthLanes = &w
			}
		}
		peer := x.topologyEnd(tl.PeerNodeGUID, tl.PeerPortGUID, tl.PeerPort, tl.PeerType, tl.PeerDescription, tl.PeerLID)
		x.ports = append(x.ports, local)
		if !own[peer.keys[0]] {
			peer.view = facts.FabricPortView{Host: x.host, Evidence: map[string]facts.FabricEvidence{"link": ev}, Sources: []string{ev.Source}}
			x.ports = append(x.ports, peer)
		}
		x.links = append(x.links, linkRecord{a: local.keys[0], b: peer.keys[0], ev: ev})
	}
}

// topologyEnd is the record of one end of a topology line: port n of node g, also named by
// the port GUID p when the line gives one (a CA's), the two names tied.
func (x *extract) topologyEnd(g, p string, n int, typ, desc string, lid *int) portRecord {
	r := portRecord{keys: []string{key(g, n)}, nodeGUID: g, port: n, nodeType: x.str(typ), nodeDescription: x.str(desc)}
	if typ != "Switch" {
		r.lid = lid // a switch port's LID is the switch's, not printed on the line
	}
	if usableGUID(p) && typ != "Switch" {
		r.portGUID = p
		r.keys = append(r.keys, key(p, n))
		x.ties = append(x.ties, [2]string{r.keys[0], r.keys[1]})
	}
	return r
}
