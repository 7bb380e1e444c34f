package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

var (
	iblinkSwitchRe = lazyregexp.New(`^Switch:?\s+(0x[0-9a-fA-F]+)\s+(.*?):\s*$`)
	iblinkCARe     = lazyregexp.New(`^CA:\s+(.*?):\s*$`)
	// A port line: [port GUID] ["node description"] LID PORT[..] ==( link )==> peer.
	iblinkPortRe = lazyregexp.New(`^\s*(?:(0x[0-9a-fA-F]+)\s+)?(?:"([^"]*)"\s+)?(\d+)\s+(\d+)\[[^\]]*\]\s*==\(\s*(.*?)\s*\)==>\s*(.*)$`)
	iblinkPeerRe = lazyregexp.New(`^(?:(0x[0-9a-fA-F]+)\s+)?(?:(\d+)\s+(\d+))?\s*\[[^\]]*\]\s*"([^"]*)"\s*\(\s*(.*?)\s*\)\s*$`)
	iblinkLinkRe = lazyregexp.New(`^(?:(\d+)X\s+([0-9.]+)\s*Gbps\s+)?(\w+)/\s*(\w+)$`)
)

// IBLinkInfo parses the output of `iblinkinfo` (rdma-core infiniband-diags/iblinkinfo.c):
//
//	Switch: 0x0002c902004b2678 Infiniscale-IV Mellanox Technologies:
//	           2    1[  ] ==( 4X          10.0 Gbps Active/  LinkUp)==>       3    1[  ] "node11 HCA-1" ( )
//	           2    8[  ] ==(                Down/ Polling)==>             [  ] "" ( )
//	CA: node04 HCA-1:
//	      0xf45214030091b9f1      1    1[  ] ==( 4X          10.0 Gbps Active/  LinkUp)==>       2    9[  ] "Infiniscale-IV Mellanox Technologies" ( )
//
// The trailing parentheses hold iblinkinfo's hint that both ends could do better, e.g.
// "( Could be 53.125 Gbps)", kept in CouldBe. Lines of other shapes are ignored.
func IBLinkInfo(b []byte) ([]facts.IBLink, error) {
	var out []facts.IBLink
	var nodeGUID, nodeDesc string
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		if m := iblinkSwitchRe.FindStringSubmatch(t); m != nil {
			nodeDesc = m[2]
			nodeGUID, _ = GUID(m[1])
			continue
		}
		if m := iblinkCARe.FindStringSubmatch(t); m != nil {
			nodeGUID, nodeDesc = "", m[1]
			continue
		}
		m := iblinkPortRe.FindStringSubmatch(l.Text)
		if m == nil {
			continue
		}
		link := facts.IBLink{NodeGUID: nodeGUID, NodeDescription: nodeDesc, Evidence: l.Evidence()}
		if m[1] != "" {
			link.PortGUID, _ = GUID(m[1])
		}
		if m[2] != "" {
			link.NodeDescription = m[2]
		}
		lid, err := strconv.Atoi(m[3])
		if err != nil {
			return nil, l.Errorf("lid: %v", err)
		}
		link.LID = intPtr(lid)
		if link.Port, err = strconv.Atoi(m[4]); err != nil {
			return nil, l.Errorf("port: %v", err)
		}
		lm := iblinkLinkRe.FindStringSubmatch(m[5])
		if lm == nil {
			return nil, l.Errorf("link %q: not \"WIDTH SPEED Gbps State/PhysState\"", m[5])
		}
		if lm[1] != "" {
			w, err1 := strconv.Atoi(lm[1])
			s, err2 := strconv.ParseFloat(lm[2], 64)
			if err1 != nil || err2 != nil {
				return nil, l.Errorf("link %q: bad width or speed", m[5])
			}
			link.WidthLanes, link.SpeedGbps = intPtr(w), float64Ptr(s)
		}
		if s, ok := PortState(lm[3]); ok {
			link.State = s
		}
		if s, ok := PhysicalState(lm[4]); ok {
			link.PhysicalState = s
		}
		if pm := iblinkPeerRe.FindStringSubmatch(m[6]); pm != nil {
			if pm[2] != "" {
				link.PeerLID = atoiPtr(pm[2])
				link.PeerPort = atoiPtr(pm[3])
			}
			link.PeerDescription = pm[4]
			link.CouldBe = pm[5]
		}
		out = append(out, link)
	}
	return out, nil
}
