package parse

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

var netDumpNodeRe = lazyregexp.New(`^"(.*)", (.*?), (0x[0-9a-fA-F]+), LID (\d+)\s*$`)

// IBDiagnetNetDump reads ibdiagnet2.net_dump (NVIDIA ibdiagnet 2.x), every switch with one line
// per port, line by line:
//
//	"Quantum-2 Mellanox Technologies", Mellanox, 0xb0cf0e0300e5b940, LID 24
//	  #          : IB# : Sta  : PhysSta    : MTU : LWA     : LSA     : FEC mode            : Retran : Neighbor Guid      : N#         : NLID : Neighbor Description
//	  1/1/1      : 1   : ACT  : LINK UP    : 5   : 4x      : 100     : RS_FEC_544_514      : NO-RTR : 0x5c25730300c06f60 : B184D0F0/0/0/1 : 156  : "node01 mlx5_10"
//	  1/17/1     : 33  : DOWN : POLL       : N/A : N/A     : N/A     : N/A                 : N/A    :                    :            :      :
//
// Columns are found by the names of each switch's header line (2.10 has Retran; other versions
// other columns). LWA is the active width, LSA the active speed per lane in Gb/s (100 NDR, 50 HDR,
// 25 EDR, 14 FDR, 10 QDR); N/A is unknown. A row that does not split into its header's
// columns, a state or number that does not parse, a row outside a switch block, and a file
// without ibdiagnet's closing "# File closed at" line (it was cut) are problems. Ports beyond
// MaxFabricPorts are counted, not kept.
func IBDiagnetNetDump(r io.Reader) ([]facts.FabricPort, error) {
	var out []facts.FabricPort
	var probs problems
	var guid, desc string
	var lid *int
	var cols map[string]int
	ncols, dropped := 0, 0
	closed, switches := false, 0
	err := EachLine(r, func(l Line) {
		l.Text = strings.Clone(l.Text) // EachLine's text is only valid during the call
		t := strings.TrimSpace(l.Text)
		header := strings.HasPrefix(t, "#") && strings.Contains(t, ": IB# :")
		switch {
		case strings.HasPrefix(t, ibdiagnetClosed):
			closed = true
			return
		case t == "" || strings.HasPrefix(t, "# ") && !header:
			return
		}
		if strings.ContainsRune(t, utf8.RuneError) {
			probs.add(l, "holds a byte that is not UTF-8: the capture was damaged here")
			return
		}
		if m := netDumpNodeRe.FindStringSubmatch(t); m != nil {
			guid, _ = GUID(m[3])
			desc = strings.Clone(m[1])
			lid = atoiPtr(m[4])
			cols, ncols = nil, 0
			switches++
			return
		}
		if header {
			cols = map[string]int{}
			names := strings.Split(t, ":")
			for i, c := range names {
				cols[strings.Clone(strings.TrimSpace(c))] = i
			}
			ncols = len(names)
			return
		}
		if guid == "" || cols == nil {
			probs.add(l, "a port line outside a switch block (\"desc\", vendor, 0xGUID, LID N and its column header)")
			return
		}
		f := strings.SplitN(l.Text, ":", ncols)
		if len(f) != ncols {
			probs.add(l, "port line has %d columns, its header %d", len(f), ncols)
			return
		}
		get := func(c string) string {
			if i, ok := cols[c]; ok {
				return strings.TrimSpace(f[i])
			}
			return ""
		}
		n, err := strconv.Atoi(get("IB#"))
		if err != nil {
			probs.add(l, "port number %q is not a number", get("IB#"))
			return
		}
		if len(out) >= MaxFabricPorts {
			dropped++
			return
		}
		ev := facts.Evidence{Line: l.N, Text: strings.Clone(l.Text)}
		p := facts.FabricPort{NodeGUID: guid, NodeDescription: desc, NodeType: "Switch", Port: n, LID: lid,
			Label: strings.Clone(get("#")), FEC: netDumpValue(get("FEC mode"))}
		netDumpStates(&p, &probs, l, get("Sta"), get("PhysSta"), ev)
		if w := get("LWA"); w != "N/A" && w != "" {
			v, err := strconv.Atoi(strings.TrimSuffix(w, "x"))
			if err != nil || !strings.HasSuffix(w, "x") {
				probs.add(l, "width %q is not NX", w)
			} else {
				p.WidthLanes = &v
				p.Evidence.Set("width_lanes", ev)
			}
		}
		if s := get("LSA"); s != "N/A" && s != "" {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				probs.add(l, "lane speed %q is not a number of Gb/s", s)
			} else {
				p.LaneSpeedGbps = &v
				p.Evidence.Set("lane_speed_gbps", ev)
			}
		}
		if g, ok := GUID(get("Neighbor Guid")); ok {
			p.PeerGUID = g
			p.PeerLabel = strings.Clone(get("N#"))
			p.PeerLID = atoiPtr(get("NLID"))
			p.PeerDescription = strings.Clone(strings.Trim(get("Neighbor Description"), `"`))
			p.Evidence.Set("peer_guid", ev)
		}
		out = append(out, p)
	})
	if err != nil {
		return out, err
	}
	if switches == 0 {
		return nil, nil // not a net_dump (its _ext sibling, another table): nothing read, nothing claimed
	}
	if !closed {
		probs.add(Line{}, "no %q line (ibdiagnet writes it last): the file was cut", ibdiagnetClosed)
	}
	if dropped > 0 {
		probs.add(Line{}, "%d ports beyond the first %d not kept", dropped, MaxFabricPorts)
	}
	return out, probs.err()
}

func netDumpStates(p *facts.FabricPort, probs *problems, l Line, sta, phys string, ev facts.Evidence) {
	if s, ok := ibdiagnetStates[sta]; ok {
		p.State = s
		p.Evidence.Set("state", ev)
	} else {
		probs.add(l, "port state %q is not ACT, DOWN, INI or ARM", sta)
	}
	if s, ok := ibdiagnetPhysStates[phys]; ok {
		p.PhysicalState = s
		p.Evidence.Set("physical_state", ev)
	} else {
		probs.add(l, "physical state %q is not one ibdiagnet prints", phys)
	}
}

func netDumpValue(s string) string {
	if s == "N/A" {
		return ""
	}
	return strings.Clone(s)
}
