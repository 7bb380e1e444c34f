package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// MlnxQoS parses `mlnx_qos -i <if>` (MLNX_OFED / mstflint python tool):
//
//	DCBX mode: OS controlled
//	Priority trust state: dscp
//	PFC configuration:
//	        priority    0   1   2   3   4   5   6   7
//	        enabled     0   0   0   1   0   0   0   0
//
// Trust is "pcp" or "dscp"; PFCEnabled lists the priorities whose enabled column is 1 (an
// empty, non-nil list when PFC is read and off everywhere). The interface name is not in the
// output: the caller sets it.
func MlnxQoS(b []byte) (*facts.QoSState, facts.EvidenceMap, error) {
	var q *facts.QoSState
	var ev facts.EvidenceMap
	var prios []string
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		key, val, ok := keyValue(t)
		if ok && (key == "Priority trust state" || key == "Priority trust mode") {
			if q == nil {
				q = &facts.QoSState{}
			}
			q.Trust = val
			ev.Set("qos.trust", l.Evidence())
			continue
		}
		f := strings.Fields(t)
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "priority":
			prios = f[1:]
		case "enabled":
			if prios == nil {
				continue
			}
			if q == nil {
				q = &facts.QoSState{}
			}
			q.PFCEnabled = []int{}
			for i, v := range f[1:] {
				if v == "1" && i < len(prios) {
					if p := atoiPtr(prios[i]); p != nil {
						q.PFCEnabled = append(q.PFCEnabled, *p)
					}
				}
			}
			ev.Set("qos.pfc_enabled", l.Evidence())
			prios = nil
		}
	}
	return q, ev, nil
}
