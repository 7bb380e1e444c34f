package fabricview

import (
	"sort"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// zeroGUID is what VFs without an assigned GUID and blanked captures print: never an identity.
const zeroGUID = "0x0000000000000000"

// portRecord is one record of a fabric port from one host's snapshot.
type portRecord struct {
	// keys are the port's names (key(guid, port)); the first is the one the record is kept by.
	keys            []string
	nodeGUID        string
	portGUID        string
	port            int
	nodeType        string
	nodeDescription string
	label           string
	lid             *int
	view            facts.FabricPortView
}

// linkRecord is a line that names both ends of a cable, by their keys.
type linkRecord struct {
	a, b string
	ev   facts.FabricEvidence
}

// hostPort is one of the host's own ports with its names.
type hostPort struct {
	port facts.FabricHostPort
	keys []string
}

// smRecord is one sminfo answer with the names of the local port it was sent from.
type smRecord struct {
	view facts.FabricSMView
	from []string
}

// extract is what one snapshot holds for the view, its strings copied (a parser's evidence
// text shares the whole file's memory).
type extract struct {
	host    string
	inputs  []string
	ports   []portRecord
	links   []linkRecord
	ties    [][2]string // pairs of keys of one port, from records that name both
	nodes   []facts.FleetFabricNode
	hostPts []hostPort
	sms     []smRecord
	refused []facts.FabricEvidence
	strs    map[string]string
}

// key names port n of the node or port with GUID g.
func key(g string, n int) string { return g + "/" + strconv.Itoa(n) }

func usableGUID(g string) bool { return g != "" && g != zeroGUID }

// fabricInputs are the spec names whose records the view reads.
var fabricInputs = map[string]bool{
	"iblinkinfo": true, "ibqueryerrors": true, "perfquery": true, "sminfo": true,
	"ibnetdiscover": true, "ibhosts": true, "ibswitches": true, "ibnodes": true,
	"ibdiagnet2_net_dump": true, "ibdiagnet2_pm": true, "ibdiagnet2_db_csv": true, "ibdiagnet2_sm": true,
}

func newExtract(host string, s *facts.Snapshot) *extract {
	x := &extract{host: host, strs: map[string]string{}}
	x.host = x.str(host)
	seen := map[string]bool{}
	for _, src := range s.Sources {
		if fabricInputs[src.Name] && (src.Status == "ok" || src.Status == "partial") && !seen[src.Name] {
			seen[src.Name] = true
			x.inputs = append(x.inputs, src.Name)
		}
	}
	sort.Strings(x.inputs)
	x.addHostPorts(s.Devices)
	x.addLinks(s.Fabric.Links)
	x.addTopology(s.Fabric.Topology)
	x.addFabricPorts(s.Fabric.Ports, s.Fabric.Nodes)
	x.addPerfCounters(s.Fabric.PerfCounters)
	x.addNodes(s.Fabric.Nodes)
	x.addSMInfo(s.Fabric.SMInfo, s.Fabric.Refusals)
	return x
}

// str returns a copy of s that shares nothing with the snapshot, one per distinct text.
func (x *extract) str(s string) string {
	if s == "" {
		return ""
	}
	if c, ok := x.strs[s]; ok {
		return c
	}
	c := strings.Clone(s)
	x.strs[c] = c
	return c
}

func (x *extract) ev(e facts.Evidence) facts.FabricEvidence {
	return facts.FabricEvidence{Host: x.host, Source: x.str(e.Source), Path: x.str(e.Path), Line: e.Line, Text: x.str(e.Text)}
}

// ownEv is a line of the host's own port: its host is the FabricHost's.
func (x *extract) ownEv(e facts.Evidence) facts.Evidence {
	return facts.Evidence{Source: x.str(e.Source), Path: x.str(e.Path), Line: e.Line, Text: x.str(e.Text)}
}

func (x *extract) evMap(m facts.EvidenceMap, keep func(string) bool) map[string]facts.FabricEvidence {
	n := len(m)
	if keep != nil { // sized for what is kept: a host port keeps 3 of the ~50 lines of its port
		n = 0
		for k := range m {
			if keep(k) {
				n++
			}
		}
	}
	out := make(map[string]facts.FabricEvidence, n)
	for k, e := range m {
		if keep == nil || keep(k) {
			out[x.str(k)] = x.ev(e)
		}
	}
	return out
}

func copyCounters(m map[string]int64) map[string]int64 {
	if m == nil {
		return nil
	}
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[strings.Clone(k)] = v
	}
	return out
}

// sources lists the evidence sources of a record, sorted.
func sources(m map[string]facts.FabricEvidence) []string {
	set := map[string]bool{}
	for _, e := range m {
		if e.Source != "" {
			set[e.Source] = true
		}
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// addHostPorts keeps the host's own InfiniBand ports. Every device record (a second capture
// included) ties its node GUID and port number to its port GUID; only first captures are the
// host's ports (a second capture in one snapshot may be another host's).
func (x *extract) addHostPorts(devs []facts.Device) {
	for _, d := range devs {
		for _, p := range d.Ports {
			if p.LinkLayer == "Ethernet" {
				continue
			}
			var keys []string
			if usableGUID(p.PortGUID) {
				keys = append(keys, key(p.PortGUID, p.Number))
			}
			if usableGUID(d.NodeGUID) {
				keys = append(keys, key(d.NodeGUID, p.Number))
			}
			if len(keys) == 2 {
				x.ties = append(x.ties, [2]string{keys[0], keys[1]})
			}
			if d.Capture != "" {
				continue
			}
			ev := make(facts.EvidenceMap, 4)
			for _, k := range [...]string{"port_guid", "state", "physical_state"} {
				if e, ok := p.Evidence[k]; ok {
					ev[k] = x.ownEv(e)
				}
			}
			if e, ok := d.Evidence["node_guid"]; ok {
				ev["node_guid"] = x.ownEv(e)
			}
			hp := facts.FabricHostPort{
				Device: x.str(d.Name), Port: p.Number, LinkLayer: x.str(p.LinkLayer), State: x.str(p.State),
				PhysicalState: x.str(p.PhysicalState), LID: facts.CopyOf(p.LID), SMLID: facts.CopyOf(p.SMLID), RateGbps: facts.CopyOf(p.RateGbps),
				Evidence: ev,
			}
			if usableGUID(d.NodeGUID) {
				hp.NodeGUID = x.str(d.NodeGUID)
			}
			if usableGUID(p.PortGUID) {
				hp.PortGUID = x.str(p.PortGUID)
			}
			x.hostPts = append(x.hostPts, hostPort{port: hp, keys: keys})
		}
	}
}

// lidPort names a port inside one capture file: a CA port's own LID, or a switch's LID and
// the port number.
type lidPort struct {
	path      string
	lid, port int
}

// addLinks reads iblinkinfo lines: a switch's port by the switch GUID, a CA's by its port
// GUID; the far end is the line of the same file with the peer's LID and port.
func (x *extract) addLinks(links []facts.IBLink) {
	byLID := map[lidPort]string{}
	ambiguous := map[lidPort]bool{}
	keys := make([]string, len(links))
	for i, l := range links {
		r := portRecord{port: l.Port, nodeDescription: x.str(l.NodeDescription), lid: l.LID}
		switch {
		case usableGUID(l.NodeGUID):
			r.nodeGUID, r.nodeType = l.NodeGUID, "Switch"
			r.keys = []string{key(l.NodeGUID, l.Port)}
		case usableGUID(l.PortGUID):
			r.portGUID, r.nodeType = l.PortGUID, "CA"
			r.keys = []string{key(l.PortGUID, l.Port)}
		default:
			continue
		}
		ev := map[string]facts.FabricEvidence{"state": x.ev(l.Evidence)}
		r.view = facts.FabricPortView{
			Host: x.host, State: l.State, PhysicalState: l.PhysicalState, WidthLanes: l.WidthLanes, LaneSpeedGbps: l.SpeedGbps,
			PeerLID: l.PeerLID, PeerPort: l.PeerPort, PeerDescription: x.str(l.PeerDescription), Evidence: ev,
			Sources: sources(ev),
		}
		x.ports = append(x.ports, r)
		keys[i] = r.keys[0]
		if l.LID != nil {
			lp := lidPort{l.Evidence.Path, *l.LID, l.Port}
			if k, ok := byLID[lp]; ok && k != r.keys[0] {
				ambiguous[lp] = true
			}
			byLID[lp] = r.keys[0]
		}
	}
	for i, l := range links {
		if keys[i] == "" || l.PeerLID == nil || l.PeerPort == nil {
			continue
		}
		lp := lidPort{l.Evidence.Path, *l.PeerLID, *l.PeerPort}
		if peer, ok := byLID[lp]; ok && !ambiguous[lp] && peer != keys[i] {
			x.links = append(x.links, linkRecord{a: keys[i], b: peer, ev: x.ev(l.Evidence)})
		}
	}
}

// addFabricPorts reads ibdiagnet2 and ibqueryerrors ports. The far end of a net_dump line is
// the port of its Neighbor Guid whose label or number is N#, or that node's only port when the
// node has one port (db_csv NumPorts, ibnetdiscover "ports 1").
func (x *extract) addFabricPorts(ports []facts.FabricPort, nodes []facts.FabricNode) {
	numPorts := map[string]int{}
	for _, n := range nodes {
		if n.Ports != nil {
			numPorts[n.GUID] = *n.Ports
		}
	}
	byNode := map[string][]int{}
	recKeys := make([]string, len(ports))
	for i, p := range ports {
		r := portRecord{port: p.Port, nodeType: x.str(p.NodeType), nodeDescription: x.str(p.NodeDescription), label: x.str(p.Label), lid: p.LID}
		if usableGUID(p.NodeGUID) {
			r.nodeGUID = p.NodeGUID
			r.keys = append(r.keys, key(p.NodeGUID, p.Port))
		}
		// A switch's ports share its GUID: only a CA's port GUID names one port.
		if usableGUID(p.PortGUID) && p.NodeType != "Switch" {
			r.portGUID = p.PortGUID
			if p.PortGUID != p.NodeGUID {
				r.keys = append(r.keys, key(p.PortGUID, p.Port))
			}
		}
		if len(r.keys) == 0 {
			continue
		}
		if len(r.keys) == 2 {
			x.ties = append(x.ties, [2]string{r.keys[0], r.keys[1]})
		}
		ev := x.evMap(p.Evidence, nil)
		r.view = facts.FabricPortView{
			Host: x.host, State: p.State, PhysicalState: p.PhysicalState, WidthLanes: p.WidthLanes, LaneSpeedGbps: p.LaneSpeedGbps,
			PeerGUID: p.PeerGUID, PeerLabel: x.str(p.PeerLabel), PeerLID: p.PeerLID, PeerDescription: x.str(p.PeerDescription),
			Counters: copyCounters(p.Counters), CounterDeltas: copyCounters(p.CounterDeltas), Evidence: ev, Sources: sources(ev),
		}
		x.ports = append(x.ports, r)
		recKeys[i] = r.keys[0]
		if r.nodeGUID != "" {
			byNode[r.nodeGUID] = append(byNode[r.nodeGUID], i)
		}
	}
	for i, p := range ports {
		if recKeys[i] == "" || !usableGUID(p.PeerGUID) {
			continue
		}
		peer := peerPort(p, ports, byNode[p.PeerGUID], numPorts[p.PeerGUID])
		if peer < 0 || recKeys[peer] == recKeys[i] {
			continue
		}
		e, ok := p.Evidence["peer_guid"]
		if !ok {
			continue
		}
		x.links = append(x.links, linkRecord{a: recKeys[i], b: recKeys[peer], ev: x.ev(e)})
	}
}

// peerPort is the index of the port at the far end of p among cands (the ports of p's
// Neighbor Guid), or -1 when no single one is named.
func peerPort(p facts.FabricPort, ports []facts.FabricPort, cands []int, numPorts int) int {
	match := func(ok func(q facts.FabricPort) bool) int {
		found := -1
		for _, i := range cands {
			if ok(ports[i]) {
				if found >= 0 {
					return -2
				}
				found = i
			}
		}
		return found
	}
	if p.PeerLabel != "" {
		if i := match(func(q facts.FabricPort) bool { return q.Label != "" && q.Label == p.PeerLabel }); i != -1 {
			return max(i, -1)
		}
		if n, err := strconv.Atoi(p.PeerLabel); err == nil {
			if i := match(func(q facts.FabricPort) bool { return q.Label == "" && q.Port == n }); i != -1 {
				return max(i, -1)
			}
		}
	}
	if numPorts == 1 {
		return max(match(func(q facts.FabricPort) bool { return q.Port == 1 }), -1)
	}
	return -1
}

// addPerfCounters reads perfquery answers: a local one (perfquery -C dev -P port) is the
// host's own port, a `perfquery -G <guid>` one the port with that GUID; one that named a
// remote LID is not joined (a LID names a port only inside its own subnet's capture).
func (x *extract) addPerfCounters(pcs []facts.PerfCounters) {
	for _, pc := range pcs {
		if pc.Port == nil {
			continue
		}
		var keys []string
		switch {
		case usableGUID(pc.GUID):
			keys = []string{key(pc.GUID, *pc.Port)}
		case pc.Local != nil && *pc.Local && pc.Device != "":
			for _, hp := range x.hostPts {
				if hp.port.Device == pc.Device && hp.port.Port == *pc.Port {
					keys = hp.keys
				}
			}
		}
		if len(keys) == 0 {
			continue
		}
		ev := x.evMap(pc.Evidence, nil)
		x.ports = append(x.ports, portRecord{keys: keys, port: *pc.Port, lid: pc.LID, view: facts.FabricPortView{
			Host: x.host, Counters: copyCounters(pc.Counters), Evidence: ev, Sources: sources(ev),
		}})
	}
}

// addNodes keeps the fabric nodes the host's captures named, by node GUID.
func (x *extract) addNodes(nodes []facts.FabricNode) {
	for _, n := range nodes {
		if !usableGUID(n.GUID) {
			continue
		}
		x.nodes = append(x.nodes, facts.FleetFabricNode{
			GUID: n.GUID, Type: x.str(n.Type), Description: x.str(n.Description), LID: n.LID, Ports: n.Ports,
			DeviceID: n.DeviceID, PSID: x.str(n.PSID), FirmwareVersion: x.str(n.FirmwareVersion),
			SeenBy: []facts.FabricEvidence{x.ev(n.Evidence)},
		})
	}
}

// addSMInfo keeps the host's sminfo answers with the local port each was sent from (-C/-P,
// or the host's only Active InfiniBand port when the file name does not say), the SMs of
// ibdiagnet2.sm (from no known port), and sminfo's own errors.
func (x *extract) addSMInfo(sms []facts.SMInfo, refusals []facts.ToolRefusal) {
	var active []hostPort
	for _, hp := range x.hostPts {
		if hp.port.State == "Active" && hp.port.LinkLayer == "InfiniBand" {
			active = append(active, hp)
		}
	}
	for _, sm := range sms {
		r := smRecord{view: facts.FabricSMView{
			Host: x.host, Device: x.str(sm.Device), Port: sm.Port, SMLID: sm.SMLID, Priority: sm.Priority,
			State: x.str(sm.State), ActivityCount: sm.ActCount, Tool: x.str(sm.Tool), Evidence: x.ev(sm.Evidence),
		}}
		if usableGUID(sm.SMGUID) {
			r.view.SMGUID = sm.SMGUID
		}
		for _, hp := range x.hostPts {
			if sm.Device != "" && sm.Port != nil && hp.port.Device == sm.Device && hp.port.Port == *sm.Port {
				r.from = hp.keys
			}
		}
		// An sminfo capture whose name does not say the port was sent from the only Active
		// InfiniBand port; ibdiagnet's report does not say which port it swept from.
		if sm.Device == "" && sm.Tool == "" && len(active) == 1 {
			r.from = active[0].keys
		}
		x.sms = append(x.sms, r)
	}
	for _, rf := range refusals {
		if rf.Tool == "sminfo" {
			x.refused = append(x.refused, x.ev(rf.Evidence))
		}
	}
}
