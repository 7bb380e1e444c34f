package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// IPLink parses iproute2 `ip link show`, `ip -s -d link` and `ip -br link` (ip/ipaddress.c
// print_linkinfo): the same record layout as IPAddr, without addresses. The PF's SR-IOV VF
// lines are read into Netdev.VFs:
//
//	vf 5     link/infiniband 00:00:0c:79:...:49:a2 brd 00:ff:..., spoof checking off, NODE_GUID 00:00:00:00:00:00:00:00, PORT_GUID 00:00:00:00:00:00:00:00, link-state enable, trust off, query_rss off
//	vf 0     link/ether 00:00:00:00:00:00 brd ff:ff:ff:ff:ff:ff, spoof checking off, link-state auto, trust off, query_rss off
//
// VF lines without their PF's header (a grep excerpt) are returned under an empty Name for the
// caller to place.
func IPLink(b []byte) ([]facts.Netdev, error) {
	return iproute(b)
}

// ipVF reads one "vf N ..." line (iproute2 print_vfinfo).
func ipVF(s string, l Line) (facts.NetdevVF, bool) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return facts.NetdevVF{}, false
	}
	idx, err := strconv.Atoi(f[1])
	if err != nil {
		return facts.NetdevVF{}, false
	}
	vf := facts.NetdevVF{Index: idx, Evidence: l.Evidence()}
	rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "vf "+f[1]))
	for _, part := range strings.Split(rest, ",") {
		p := strings.Fields(part)
		if len(p) < 2 {
			continue
		}
		last := p[len(p)-1]
		switch {
		case strings.HasPrefix(p[0], "link/"), p[0] == "MAC":
			vf.LinkAddress = p[1]
		case p[0] == "NODE_GUID":
			vf.NodeGUID = p[1]
		case p[0] == "PORT_GUID":
			vf.PortGUID = p[1]
		case p[0] == "link-state":
			vf.LinkState = p[1]
		case p[0] == "spoof":
			if v, ok := onOff(last); ok {
				vf.SpoofCheck = boolPtr(v)
			}
		case p[0] == "trust":
			if v, ok := onOff(last); ok {
				vf.Trust = boolPtr(v)
			}
		}
	}
	return vf, true
}
