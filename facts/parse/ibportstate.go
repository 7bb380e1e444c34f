package parse

import (
	"sort"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// IBPortStateOutput is what `ibportstate` printed: its PortInfo blocks, in file order.
type IBPortStateOutput struct {
	Blocks []facts.PortInfo
	// Refusal is the tool's own error (ibwarn/ibpanic: umad, MAD or resolve failures).
	Refusal *facts.ToolRefusal
}

var (
	// portInfoHeaderRe is a block header: "# Port info: Lid 38 port 1"; smpquery's directed-route
	// form "# Port info: DR path slid 0; dlid 0; 0,1" names no LID.
	portInfoHeaderRe = lazyregexp.New(`^#\s*(MLNX ext )?Port info:\s*(.*)$`)
	portInfoLidRe    = lazyregexp.New(`^Lid (\d+) port (\d+)\b`)
	// portInfoTitleRe is the line ibportstate prints above a block ("CA PortInfo:", "After
	// PortInfo set:", "Peer PortInfo:").
	portInfoTitleRe = lazyregexp.New(`^([A-Za-z/ ]*PortInfo(?: set)?):$`)
	// portInfoFieldRe is a dotted field line, "LinkWidthActive:.................4X".
	portInfoFieldRe = lazyregexp.New(`^([A-Za-z0-9_]+):\.+(.*)$`)
)

// ibSignalling maps the lane signalling rates libibmad prints ("2.5 Gbps", "14.0625 Gbps") to
// lane speed names (rdma-core libibmad dump.c mad_dump_linkspeed/mad_dump_linkspeedext).
var ibSignalling = map[string]string{
	"2.5": "SDR", "5.0": "DDR", "10.0": "QDR", "14.0625": "FDR", "25.78125": "EDR",
	"53.125": "HDR", "106.25": "NDR", "212.5": "XDR",
}

// ibSpeedOrder orders lane speed names for a stable output.
var ibSpeedOrder = map[string]int{"SDR": 1, "DDR": 2, "QDR": 3, "FDR10": 4, "FDR": 5, "EDR": 6, "HDR": 7, "NDR": 8, "XDR": 9}

// IBPortState parses `ibportstate [-C ca -P port] <lid> <port> [query|enable|reset|speed ...]`
// (rdma-core infiniband-diags/ibportstate.c, fields dumped by libibmad):
//
//	Initial CA/RT PortInfo:
//	# Port info: Lid 6 port 1
//	LinkState:.......................Active
//	PhysLinkState:...................LinkUp
//	LinkWidthSupported:..............1X or 4X
//	LinkWidthEnabled:................1X
//	LinkWidthActive:.................1X
//	LinkSpeedSupported:..............2.5 Gbps or 5.0 Gbps or 10.0 Gbps
//	LinkSpeedActive:.................10.0 Gbps
//	LinkSpeedExtActive:..............14.0625 Gbps
//	# MLNX ext Port info: Lid 6 port 1
//	LinkSpeedActive:.................0x00
//
// Each "# Port info" header starts a block; a "# MLNX ext Port info" header continues the block
// of the same port (its LinkSpeed* bit 0 is FDR10). A title line ("Peer PortInfo:", "After
// PortInfo set:") names the blocks below it. A field that does not parse is a problem of its line.
func IBPortState(b []byte) (IBPortStateOutput, error) {
	var out IBPortStateOutput
	var probs problems
	lines := Lines(b)
	p := portInfoParser{}
	title := ""
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		switch {
		case t == "":
		case portInfoTitleRe.MatchString(t):
			title = portInfoTitleRe.FindStringSubmatch(t)[1]
		case portInfoHeaderRe.MatchString(t):
			m := portInfoHeaderRe.FindStringSubmatch(t)
			if m[1] != "" { // Mellanox extended PortInfo of the block above
				p.ext = true
				continue
			}
			p.flush(&out)
			p.start(title, m[2], l)
		case portInfoFieldRe.MatchString(t):
			if p.cur == nil {
				probs.add(l, "PortInfo field before any \"# Port info:\" header")
				continue
			}
			m := portInfoFieldRe.FindStringSubmatch(t)
			if why := p.field(m[1], strings.TrimSpace(m[2]), l); why != "" {
				probs.add(l, "%s", why)
			}
		default:
			if r := ibRefusal(l); r != nil {
				if out.Refusal == nil {
					r.Tool = "ibportstate"
					out.Refusal = r
				}
			}
		}
	}
	p.flush(&out)
	for i := len(out.Blocks) - 1; i >= 0; i-- {
		if !out.Blocks[i].Peer {
			out.Blocks[i].Latest = true
			break
		}
	}
	probs.replaced(lines)
	probs.cut(b, lines, true) // a field is complete only with its newline
	return out, probs.err()
}

// portInfoParser collects one block: the base, extended and Mellanox extended speed fields are
// combined when the block ends.
type portInfoParser struct {
	cur *facts.PortInfo
	ext bool // inside the "# MLNX ext Port info" part
	// supported and enabled speeds (base, ext and Mellanox FDR10 together), each with the line
	// it came from; active by field: base, ext, mlnx (FDR10)
	supported, enabled map[string]facts.Evidence
	active             [3]string
	activeEv           [3]facts.Evidence
}

func (p *portInfoParser) start(title, where string, l Line) {
	pi := facts.PortInfo{Title: title, Peer: title == "Peer PortInfo"}
	if m := portInfoLidRe.FindStringSubmatch(where); m != nil {
		pi.LID, pi.PortNumber = atoiPtr(m[1]), atoiPtr(m[2])
		pi.Evidence.Set("lid", l.Evidence())
		pi.Evidence.Set("port_number", l.Evidence())
	}
	*p = portInfoParser{cur: &pi, supported: map[string]facts.Evidence{}, enabled: map[string]facts.Evidence{}}
}

// field records one "Key:....value" line; it returns why the value could not be used, or "".
func (p *portInfoParser) field(key, val string, l Line) string {
	pi := p.cur
	ev := l.Evidence()
	if p.ext {
		// Mellanox extended PortInfo: LinkSpeed* are bit masks, bit 0 = FDR10.
		if !strings.HasPrefix(key, "LinkSpeed") {
			return ""
		}
		n, err := strconv.ParseUint(strings.TrimPrefix(val, "0x"), 16, 32)
		if err != nil || !strings.HasPrefix(val, "0x") {
			return "not a hex bit mask"
		}
		if n&1 == 0 {
			return ""
		}
		switch key {
		case "LinkSpeedSupported":
			p.supported["FDR10"] = ev
		case "LinkSpeedEnabled":
			p.enabled["FDR10"] = ev
		case "LinkSpeedActive":
			p.active[2], p.activeEv[2] = "FDR10", ev
		}
		return ""
	}
	switch key {
	case "LinkState":
		pi.LinkState = val
		pi.Evidence.Set("link_state", ev)
	case "PhysLinkState":
		pi.PhysLinkState = val
		pi.Evidence.Set("phys_link_state", ev)
	case "LinkWidthSupported", "LinkWidthEnabled":
		ws, ok := widthList(val)
		if !ok {
			return "not a list of link widths (1X or 4X)"
		}
		if key == "LinkWidthSupported" {
			pi.WidthSupported = ws
			pi.Evidence.Set("width_supported", ev)
		} else {
			pi.WidthEnabled = ws
			pi.Evidence.Set("width_enabled", ev)
		}
	case "LinkWidthActive":
		ws, ok := widthList(val)
		if !ok || len(ws) != 1 {
			return "not a link width (4X)"
		}
		pi.WidthActive = intPtr(ws[0])
		pi.Evidence.Set("width_active", ev)
	case "LinkSpeedSupported", "LinkSpeedExtSupported", "LinkSpeedEnabled", "LinkSpeedExtEnabled":
		names, ok := speedNames(val)
		if !ok {
			return "not a list of link speeds (2.5 Gbps or 5.0 Gbps ...)"
		}
		set := p.supported
		if strings.HasSuffix(key, "Enabled") {
			set = p.enabled
		}
		for _, n := range names {
			set[n] = ev
		}
	case "LinkSpeedActive", "LinkSpeedExtActive":
		names, ok := speedNames(val)
		if !ok || len(names) > 1 {
			return "not a link speed (10.0 Gbps)"
		}
		i := 0
		if key == "LinkSpeedExtActive" {
			i = 1
		}
		if len(names) == 1 {
			p.active[i], p.activeEv[i] = names[0], ev
		}
	}
	return ""
}

func (p *portInfoParser) flush(out *IBPortStateOutput) {
	pi := p.cur
	if pi == nil {
		return
	}
	// The evidence of a list is the line of its fastest speed, the one rules compare.
	pi.SpeedSupported = sortedSpeeds(p.supported)
	pi.SpeedEnabled = sortedSpeeds(p.enabled)
	if n := len(pi.SpeedSupported); n > 0 {
		pi.Evidence.Set("speed_supported", p.supported[pi.SpeedSupported[n-1]])
	}
	if n := len(pi.SpeedEnabled); n > 0 {
		pi.Evidence.Set("speed_enabled", p.enabled[pi.SpeedEnabled[n-1]])
	}
	// LinkSpeedActive is valid only when LinkSpeedExtActive is 0 (IBA PortInfo): the extended
	// speed first, then the Mellanox FDR10 bit, then the base speed.
	for _, i := range []int{1, 2, 0} {
		if p.active[i] != "" {
			pi.SpeedActive = p.active[i]
			pi.Evidence.Set("speed_active", p.activeEv[i])
			break
		}
	}
	out.Blocks = append(out.Blocks, *pi)
	p.cur = nil
}

func sortedSpeeds(set map[string]facts.Evidence) []string {
	var out []string
	for s := range set {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return ibSpeedOrder[out[i]] < ibSpeedOrder[out[j]] })
	return out
}

// widthList reads "1X or 4X" (or "4X") into lanes.
func widthList(val string) ([]int, bool) {
	var out []int
	for _, w := range strings.Split(val, " or ") {
		n, ok := ActiveWidth(w)
		if !ok || strings.TrimSpace(w) != strconv.Itoa(n)+"X" {
			return nil, false
		}
		out = append(out, n)
	}
	sortInts(out)
	return out, len(out) > 0
}

// speedNames reads "2.5 Gbps or 5.0 Gbps or 10.0 Gbps" into lane names. libibmad's words for
// "no speed here" ("Extended speed": look at LinkSpeedExt*; "No Extended Speed", "0") give none.
func speedNames(val string) ([]string, bool) {
	switch strings.ToLower(val) {
	case "extended speed", "no extended speed", "0":
		return nil, true
	}
	var out []string
	for _, s := range strings.Split(val, " or ") {
		g, ok := strings.CutSuffix(strings.TrimSpace(s), " Gbps")
		name := ibSignalling[g]
		if !ok || name == "" {
			return nil, false
		}
		out = append(out, name)
	}
	return out, true
}
