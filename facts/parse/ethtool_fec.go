package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// EthtoolFEC parses `ethtool --show-fec <if>` (ethtool.c do_gfec / netlink/fec.c):
//
//	FEC parameters for enp1s0f1np1:
//	Supported/Configured FEC encodings: Auto
//	Active FEC encoding: RS
//
// Older ethtool prints "Configured FEC encodings:". Statistics lines (-I) are ignored. A refusal
// ("Cannot get FEC settings: Operation not supported", "netlink error: ...") is returned as refusal.
func EthtoolFEC(b []byte) (f *facts.FECParams, ev facts.EvidenceMap, refusal string, err error) {
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		if strings.HasPrefix(t, "Cannot ") || strings.HasPrefix(t, "netlink error:") {
			return f, ev, t, nil
		}
		key, val, ok := keyValue(t)
		if !ok {
			continue
		}
		switch {
		case strings.HasSuffix(key, "Configured FEC encodings"):
			if f == nil {
				f = &facts.FECParams{}
			}
			f.Configured = strings.Fields(val)
			ev.Set("fec.configured", l.Evidence())
		case key == "Active FEC encoding":
			if f == nil {
				f = &facts.FECParams{}
			}
			f.Active = val
			ev.Set("fec.active", l.Evidence())
		}
	}
	return f, ev, "", nil
}
