package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// EthtoolPause parses `ethtool -a <if>` (ethtool.c dump_pause / netlink/pause.c):
//
//	Pause parameters for ens5:
//	Autonegotiate:  off
//	RX:             on
//	TX:             on
//
// A refusal ("Cannot get device pause settings: Operation not supported") is returned as refusal.
func EthtoolPause(b []byte) (p *facts.PauseParams, ev facts.EvidenceMap, refusal string, err error) {
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		if strings.HasPrefix(t, "Cannot get") || strings.HasPrefix(t, "netlink error:") {
			return p, ev, t, nil
		}
		key, val, ok := keyValue(t)
		if !ok {
			continue
		}
		v, known := onOff(val)
		if !known {
			continue
		}
		if p == nil {
			p = &facts.PauseParams{}
		}
		switch key {
		case "Autonegotiate":
			p.Autoneg = boolPtr(v)
			ev.Set("pause.autoneg", l.Evidence())
		case "RX":
			p.RX = boolPtr(v)
			ev.Set("pause.rx", l.Evidence())
		case "TX":
			p.TX = boolPtr(v)
			ev.Set("pause.tx", l.Evidence())
		}
	}
	return p, ev, "", nil
}
