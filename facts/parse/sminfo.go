package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// SMInfoOutput is what `sminfo` printed.
type SMInfoOutput struct {
	SMs []facts.SMInfo
	// Refusal is sminfo's own error, e.g. "client_register for mgmt 1 failed" on a RoCE port.
	Refusal *facts.ToolRefusal
}

var sminfoRe = lazyregexp.New(`sminfo: sm lid (\d+) sm guid (0x[0-9a-fA-F]+), activity count (\d+) priority (\d+)(?:\s+state (\d+) (\S+))?`)
var sminfoStateRe = lazyregexp.New(`^state (\d+) (\S+)\s*$`)

// SMInfo parses the output of `sminfo` (rdma-core infiniband-diags/sminfo.c):
//
//	sminfo: sm lid 4 sm guid 0x8c0eb0300f6fc26, activity count 5568705 priority 15 state 3 SMINFO_MASTER
//
// The GUID is printed without zero padding and is normalised to 16 digits. A "state N NAME"
// line wrapped onto the next line is joined back. Captures of several nodes give several records.
func SMInfo(b []byte) (SMInfoOutput, error) {
	var out SMInfoOutput
	var probs problems
	lines := Lines(b)
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		if m := sminfoRe.FindStringSubmatch(t); m != nil {
			sm := facts.SMInfo{Evidence: l.Evidence()}
			lid, err1 := strconv.Atoi(m[1])
			act, err2 := strconv.ParseInt(m[3], 10, 64)
			prio, err3 := strconv.Atoi(m[4])
			if err1 != nil || err2 != nil || err3 != nil {
				return out, l.Errorf("number out of range")
			}
			sm.SMLID, sm.ActCount, sm.Priority = intPtr(lid), &act, intPtr(prio)
			sm.SMGUID, _ = GUID(m[2])
			sm.State = m[6]
			out.SMs = append(out.SMs, sm)
			continue
		}
		if m := sminfoStateRe.FindStringSubmatch(t); m != nil && len(out.SMs) > 0 && out.SMs[len(out.SMs)-1].State == "" {
			last := &out.SMs[len(out.SMs)-1]
			last.State = m[2]
			continue
		}
		if r := ibRefusal(l); r != nil {
			if out.Refusal == nil {
				r.Tool = "sminfo"
				out.Refusal = r
			}
			continue
		}
		if strings.HasPrefix(t, "sminfo: sm lid") {
			probs.add(l, "not an sminfo line (sm lid N sm guid 0x..., activity count N priority N state N NAME)")
		}
	}
	probs.replaced(lines)
	probs.cut(b, lines, true) // an sminfo line is complete only with its newline
	return out, probs.err()
}
