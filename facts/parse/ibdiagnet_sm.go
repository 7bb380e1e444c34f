package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

var (
	// "  SM - master": the heading of the SMs ibdiagnet found in one state.
	ibdiagSMHeadingRe = lazyregexp.New(`^SM - (\S.*?)\s*$`)
	// "    Port=0 lid=0x00b4 guid=0xb0cf0e0300d33fc0 dev=54002 priority:12"
	ibdiagSMRe = lazyregexp.New(`^Port=(\d+) lid=0x([0-9a-fA-F]+) guid=(0x[0-9a-fA-F]+) dev=(\d+) priority:(\d+)$`)
)

// ibdiagSMStates maps the state headings of ibdiagnet2.sm seen in real reports to sminfo's name
// for that state (infiniband-diags sminfo: SMINFO_MASTER), so that rules read one spelling. A
// heading not listed (another state) is kept as ibdiagnet wrote it.
var ibdiagSMStates = map[string]string{"master": "SMINFO_MASTER"}

// IBDiagnetSM parses ibdiagnet2.sm, ibdiagnet's report of the subnet managers it found in the
// fabric (ibutils2, IBDIAGNET 2.x):
//
//	ibdiagnet fabric SM report
//
//	  SM - master
//	    Port=0 lid=0x00b4 guid=0xb0cf0e0300d33fc0 dev=54002 priority:12
//
// Each SM line becomes one record with the state of the heading above it (SMINFO_MASTER for
// "master"), its LID (hex in the file), port GUID (normalised to 16 digits) and priority; the
// port number is the SM's port on its own node (0 for a switch's management port), not a port
// of this host, and is not kept. The "#" header and footer lines are ibdiagnet's. Any other
// line, or an SM line before a heading, is a problem (the records kept are still good).
func IBDiagnetSM(b []byte) ([]facts.SMInfo, error) {
	var out []facts.SMInfo
	var probs problems
	lines := Lines(b)
	state := ""
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		switch {
		case t == "" || strings.HasPrefix(t, "#") || t == "ibdiagnet fabric SM report":
		case ibdiagSMHeadingRe.MatchString(t):
			word := ibdiagSMHeadingRe.FindStringSubmatch(t)[1]
			state = word
			if s, ok := ibdiagSMStates[strings.ToLower(word)]; ok {
				state = s
			}
		case ibdiagSMRe.MatchString(t):
			m := ibdiagSMRe.FindStringSubmatch(t)
			if state == "" {
				probs.add(l, "an SM line before any \"SM - <state>\" heading: its state is unknown")
				continue
			}
			lid, err1 := strconv.ParseInt(m[2], 16, 32)
			prio, err2 := strconv.Atoi(m[5])
			guid, ok := GUID(m[3])
			if err1 != nil || err2 != nil || !ok {
				probs.add(l, "LID, GUID or priority out of range")
				continue
			}
			out = append(out, facts.SMInfo{SMLID: intPtr(int(lid)), SMGUID: guid, Priority: intPtr(prio), State: state,
				Tool: "ibdiagnet2", Evidence: l.Evidence()})
		default:
			probs.add(l, "not an ibdiagnet2.sm line (\"SM - <state>\" or \"Port=N lid=0x... guid=0x... dev=N priority:N\")")
		}
	}
	probs.replaced(lines)
	// ibdiagnet closes the file with "# File closed at : <time>": without it, a last line
	// without its newline was cut.
	probs.cutUnless(b, lines, func(l Line) bool { return strings.HasPrefix(l.Text, "# File closed at") })
	return out, probs.err()
}
