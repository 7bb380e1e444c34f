package parse

import (
	"slices"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// FabricNodesOutput is what ibnetdiscover, ibhosts, ibswitches or ibnodes printed.
type FabricNodesOutput struct {
	Nodes []facts.FabricNode
	// Links are the topology's port lines (ibnetdiscover without --ports, ibdiagnet2.ibnetdiscover):
	// each port of a node's block with the peer port it is cabled to, in file order.
	Links []facts.TopologyLink
	// Refusal is the tool's own error, e.g. "can't open MAD port" / "discover failed".
	Refusal *facts.ToolRefusal
}

var (
	// ibhosts / ibswitches / ibnodes:
	//	Switch	: 0x08c0eb0300f6fc26 ports 41 "MF0;d32-03-1:MQM8700/U1" enhanced port 0 lid 4 lmc 0
	//	Ca	: 0x0002c90300002f78 ports 2 "node01 mlx4_0"
	nodeLineRe = lazyregexp.New(`^(Ca|Switch|Router)\s*:\s*(0x[0-9a-fA-F]+)\s+ports\s+(\d+)\s+"(.*)"(?:\s+(?:base|enhanced)\s+port\s+\d+\s+lid\s+(\d+))?`)
	// ibnetdiscover topology: Switch	36 "S-ec0d9a0300ec8240"		# "desc" base port 0 lid 48 lmc 0
	topoNodeRe = lazyregexp.New(`^(Switch|Ca|Rt)\s+(\d+)\s+"[SHR]-([0-9a-fA-F]+)"\s*(?:#\s*"(.*?)"(?:.*?\blid\s+(\d+))?)?`)
	// ibnetdiscover topology link, a port of the block's node and the peer port it is cabled to:
	//	[1]	"H-506b4b03003fa9b6"[1](506b4b03003fa9b6) 		# "node018 HCA-1" lid 67 4xEDR
	//	[1](1/1/1) "H-5c25730300e6706e"[1](5c25730300e6706e)      # "node01 mlx5_8" lid 164 4xNDR
	//	[1](B134D0F0/0/0/1)(5c25730300e6706e) "S-fc6a1c030091cf00"[1] # lid 164 lmc 0 "Quantum-2 Mellanox Technologies" lid 13 4xNDR
	// 1 port, 2 the local parentheses (a switch port's label; a CA's labels, then its port
	// GUID), 3-5 the peer's type, GUID and port, 6 the peer's port GUID (a CA's), 7 the local
	// port's LID (a CA's), 8 the peer's description, 9 its LID, 10 the link's width and speed.
	topoLinkRe   = lazyregexp.New(`^\[(\d+)\]((?:\([^)"]*\))*)\s+"([SHR])-([0-9a-fA-F]+)"\[(\d+)\](?:\(([0-9a-fA-F]+)\))?\s*#\s*(?:lid (\d+) lmc \d+\s+)?"(.*?)"\s+lid\s+(\d+)\s+(\d+x\w+)`)
	topoParensRe = lazyregexp.New(`\(([^)]*)\)`)
	// a topology block's header lines: vendid=0x2c9, devid=0xd2f2, sysimgguid=0x..., switchguid=0x...(...), caguid=0x...
	topoHeaderRe = lazyregexp.New(`^(vendid|devid|sysimgguid|switchguid|caguid|rtguid)=0x[0-9a-fA-F]+`)
	// ibnetdiscover --ports: CA    78  1 0x946dae0300630bfe 4x HDR - SW    51 81 0x946dae0300630bf6 ( 'desc' - 'peer desc' )
	portsLineRe = lazyregexp.New(`^(CA|SW|RT)\s+(\d+)\s+(\d+)\s+(0x[0-9a-fA-F]+)\s+(\d+x)\s+(\w+)\s*(?:-\s+(CA|SW|RT)\s+(\d+)\s+(\d+)\s+(0x[0-9a-fA-F]+)\s+\(\s*'(.*?)'\s+-\s+'(.*?)'\s*\)|'(.*)')?`)
)

// topologyLink is the link of a topology port line m (topoLinkRe) in the block of node n; ok
// is false when a port number or GUID is out of range.
func topologyLink(n facts.FabricNode, m []string, l Line) (tl facts.TopologyLink, ok bool) {
	port, peerPort := atoiPtr(m[1]), atoiPtr(m[5])
	peer, okPeer := GUID(m[4])
	if port == nil || peerPort == nil || !okPeer {
		return tl, false
	}
	tl = facts.TopologyLink{NodeGUID: n.GUID, NodeType: n.Type, Port: *port, LID: atoiPtr(m[7]),
		PeerType: nodeTypes[m[3]], PeerNodeGUID: peer, PeerPort: *peerPort, PeerDescription: m[8], PeerLID: atoiPtr(m[9]),
		Speed: m[10], Evidence: l.Evidence()}
	if m[6] != "" {
		tl.PeerPortGUID, _ = GUID(m[6])
	}
	labels := topoParensRe.FindAllStringSubmatch(m[2], -1)
	// A CA's block gives its port GUID in the last parentheses; a switch's ports share its
	// GUID, and what it gives there is the port's label ("1/1/1").
	if n.Type == "CA" && len(labels) > 0 {
		if g, ok := GUID(labels[len(labels)-1][1]); ok {
			tl.PortGUID = g
			labels = labels[:len(labels)-1]
		}
	}
	if n.Type == "Switch" && len(labels) > 0 {
		tl.Label = labels[0][1]
	}
	return tl, true
}

var nodeTypes = map[string]string{"Ca": "CA", "CA": "CA", "H": "CA", "Switch": "Switch", "SW": "Switch", "S": "Switch",
	"Router": "Router", "Rt": "Router", "RT": "Router", "R": "Router"}

// IBNetDiscover parses the node lists of the fabric discovery tools (rdma-core
// infiniband-diags): `ibhosts`, `ibswitches` and `ibnodes` lines
//
//	Ca	: 0x0002c90300002f78 ports 2 "node01 mlx4_0"
//	Switch	: 0x08c0eb0300add04e ports 41 "Quantum Mellanox Technologies" base port 0 lid 10 lmc 0
//
// `ibnetdiscover` topology blocks (a "Switch 36 "S-<guid>" # "desc" ... lid N" heading and
// "[port] "H-<guid>"[port] # "desc" lid N 4xEDR" link lines), and `ibnetdiscover --ports` lines
//
//	CA    88  1 0xb83fd20300da1138 4x HDR - SW    51 79 0x946dae0300630bf6 ( 'node01 mlx5_3' - 'leaf01 ' )
//
// Nodes are merged by GUID (both ends of a link are nodes), keep the first LID seen, collect the
// link speeds ("4xHDR") and are returned sorted by GUID. A line of none of these shapes (nor a
// comment, a block's vendid=/devid=/...guid= header, ibwarn chatter or the tool's own error) is
// a problem: the records returned are still good.
func IBNetDiscover(b []byte) (FabricNodesOutput, error) {
	var out FabricNodesOutput
	byGUID := map[string]*facts.FabricNode{}
	add := func(typ, guid, desc string, ports, lid *int, speed string, l Line) {
		g, ok := GUID(guid)
		if !ok {
			return
		}
		n := byGUID[g]
		if n == nil {
			n = &facts.FabricNode{Type: nodeTypes[typ], GUID: g, Evidence: l.Evidence()}
			byGUID[g] = n
		}
		if n.Description == "" {
			n.Description = desc
		}
		if n.Ports == nil {
			n.Ports = ports
		}
		if n.LID == nil {
			n.LID = lid
		}
		if speed != "" && !slices.Contains(n.Speeds, speed) {
			n.Speeds = append(n.Speeds, speed)
		}
	}
	var block *facts.FabricNode // the topology block the lines are in
	var probs problems
	lines := Lines(b)
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		if t == "" {
			block = nil
		}
		switch {
		case nodeLineRe.MatchString(t):
			m := nodeLineRe.FindStringSubmatch(t)
			add(m[1], m[2], m[4], atoiPtr(m[3]), atoiPtr(m[5]), "", l)
		case topoNodeRe.MatchString(t):
			m := topoNodeRe.FindStringSubmatch(t)
			add(m[1], m[3], m[4], atoiPtr(m[2]), atoiPtr(m[5]), "", l)
			block = nil
			if g, ok := GUID(m[3]); ok {
				block = byGUID[g]
			}
		case topoLinkRe.MatchString(t):
			m := topoLinkRe.FindStringSubmatch(t)
			add(m[3], m[4], m[8], nil, atoiPtr(m[9]), m[10], l)
			if block != nil {
				if tl, ok := topologyLink(*block, m, l); ok {
					out.Links = append(out.Links, tl)
				}
			}
		case portsLineRe.MatchString(t):
			m := portsLineRe.FindStringSubmatch(t)
			speed := m[5] + m[6]
			desc := m[11]
			if m[13] != "" {
				desc = m[13]
			}
			add(m[1], m[4], desc, nil, atoiPtr(m[2]), speed, l)
			if m[7] != "" {
				add(m[7], m[10], m[12], nil, atoiPtr(m[8]), speed, l)
			}
		case ibRefusal(l) != nil:
			if out.Refusal == nil {
				out.Refusal = ibRefusal(l)
			}
		case t == "" || strings.HasPrefix(t, "#") || topoHeaderRe.MatchString(t) || strings.HasPrefix(t, "ibwarn:"):
		default:
			probs.add(l, "not a line of ibnetdiscover, ibhosts, ibswitches or ibnodes (a node, a topology port line or a --ports line)")
		}
	}
	probs.replaced(lines)
	for _, n := range byGUID {
		sort.Strings(n.Speeds)
		out.Nodes = append(out.Nodes, *n)
	}
	sort.Slice(out.Nodes, func(i, j int) bool { return out.Nodes[i].GUID < out.Nodes[j].GUID })
	return out, probs.err()
}
