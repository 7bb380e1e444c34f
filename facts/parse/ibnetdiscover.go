package parse

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// FabricNodesOutput is what ibnetdiscover, ibhosts, ibswitches or ibnodes printed.
type FabricNodesOutput struct {
	Nodes []facts.FabricNode
	// Refusal is the tool's own error, e.g. "can't open MAD port" / "discover failed".
	Refusal *facts.ToolRefusal
}

var (
	// ibhosts / ibswitches / ibnodes:
	//	Switch	: 0x08c0eb0300f6fc26 ports 41 "MF0;d32-03-1:MQM8700/U1" enhanced port 0 lid 4 lmc 0
	//	Ca	: 0x0002c90300002f78 ports 2 "node01 mlx4_0"
	nodeLineRe = regexp.MustCompile(`^(Ca|Switch|Router)\s*:\s*(0x[0-9a-fA-F]+)\s+ports\s+(\d+)\s+"(.*)"(?:\s+(?:base|enhanced)\s+port\s+\d+\s+lid\s+(\d+))?`)
	// ibnetdiscover topology: Switch	36 "S-ec0d9a0300ec8240"		# "desc" base port 0 lid 48 lmc 0
	topoNodeRe = regexp.MustCompile(`^(Switch|Ca|Rt)\s+(\d+)\s+"[SHR]-([0-9a-fA-F]+)"\s*(?:#\s*"(.*?)"(?:.*?\blid\s+(\d+))?)?`)
	// ibnetdiscover topology link: [1]	"H-506b4b03003fa9b6"[1](506b4b03003fa9b6) 		# "node018 HCA-1" lid 67 4xEDR
	topoLinkRe = regexp.MustCompile(`^\[\d+\](?:\([0-9a-fA-F]+\))?\s+"([SHR])-([0-9a-fA-F]+)"\[\d+\](?:\([0-9a-fA-F]+\))?\s*#(?:.*?lid \d+ lmc \d+)?\s*"(.*?)"\s+lid\s+(\d+)\s+(\d+x\w+)`)
	// ibnetdiscover --ports: CA    78  1 0x946dae0300630bfe 4x HDR - SW    51 81 0x946dae0300630bf6 ( 'desc' - 'peer desc' )
	portsLineRe = regexp.MustCompile(`^(CA|SW|RT)\s+(\d+)\s+(\d+)\s+(0x[0-9a-fA-F]+)\s+(\d+x)\s+(\w+)\s*(?:-\s+(CA|SW|RT)\s+(\d+)\s+(\d+)\s+(0x[0-9a-fA-F]+)\s+\(\s*'(.*?)'\s+-\s+'(.*?)'\s*\)|'(.*)')?`)
)

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
// link speeds ("4xHDR") and are returned sorted by GUID.
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
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		switch {
		case nodeLineRe.MatchString(t):
			m := nodeLineRe.FindStringSubmatch(t)
			add(m[1], m[2], m[4], atoiPtr(m[3]), atoiPtr(m[5]), "", l)
		case topoNodeRe.MatchString(t):
			m := topoNodeRe.FindStringSubmatch(t)
			add(m[1], m[3], m[4], atoiPtr(m[2]), atoiPtr(m[5]), "", l)
		case topoLinkRe.MatchString(t):
			m := topoLinkRe.FindStringSubmatch(t)
			add(m[1], m[2], m[3], nil, atoiPtr(m[4]), m[5], l)
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
		default:
			if r := ibRefusal(l); r != nil && out.Refusal == nil {
				out.Refusal = r
			}
		}
	}
	for _, n := range byGUID {
		sort.Strings(n.Speeds)
		out.Nodes = append(out.Nodes, *n)
	}
	sort.Slice(out.Nodes, func(i, j int) bool { return out.Nodes[i].GUID < out.Nodes[j].GUID })
	return out, nil
}
