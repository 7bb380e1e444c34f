package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// IBDevNetdev is one line of ibdev2netdev: an RDMA port and the netdev on it.
type IBDevNetdev struct {
	Device string
	Port   int
	Netdev string
	// NetdevState is the netdev's operstate as the script prints it: "Up" or "Down".
	NetdevState string
	// PCIAddress, CAType ("MT4115"), Firmware and PortState (normalised, e.g. "Active") come
	// from the -v form only.
	PCIAddress string
	CAType     string
	Firmware   string
	PortState  string
	Evidence   facts.Evidence
}

var (
	ibdev2netdevRe = lazyregexp.New(`^\s*(?:([0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s+)?(\S+)\s+(?:(.*?)\s+)?port\s+(\d+)\s*(?:\(\s*(\w+)\s*\))?\s*==>\s*(\S+)\s*\((\w+)\)`)
	ibdevCATypeRe  = lazyregexp.New(`^\((MT\d+)\s*-`)
	ibdevFwRe      = lazyregexp.New(`\bfw\s+(\S+)\s*$`)
)

// IBDev2Netdev parses the output of Mellanox's `ibdev2netdev` script (MLNX_OFED / DOCA) in
// its plain and -v forms:
//
//	mlx5_0 port 1 ==> ib0 (Up)
//	0000:02:00.0 mlx5_0 (MT4115 - MT1523X04353) CX456A - ConnectX-4 QSFP fw 12.23.1020 port 1 (ACTIVE) ==> ib0 (Up)
//
// Text after the closing parenthesis (e.g. comments added by `column -t` users) is ignored,
// and so are lines without "==>" (blank lines, prompts). A line with "==>" that does not have
// the "port N ==> netdev (State)" shape (a port that is not a number, a line cut short) is a
// problem of a partial read, and so is a last line cut before its "==>": the other lines are kept.
func IBDev2Netdev(b []byte) ([]IBDevNetdev, error) {
	var out []IBDevNetdev
	var probs problems
	lines := Lines(b)
	lastMatched := false
	for _, l := range lines {
		m := ibdev2netdevRe.FindStringSubmatch(l.Text)
		lastMatched = m != nil
		if m == nil {
			if strings.Contains(l.Text, "==>") {
				probs.add(l, "not an ibdev2netdev line (<device> port <number> ==> <netdev> (Up|Down))")
			}
			continue
		}
		n, err := strconv.Atoi(m[4])
		if err != nil {
			probs.add(l, "port number: %v", err)
			continue
		}
		r := IBDevNetdev{Device: m[2], Port: n, Netdev: m[6], NetdevState: m[7], PCIAddress: strings.ToLower(m[1]), Evidence: l.Evidence()}
		if c := ibdevCATypeRe.FindStringSubmatch(m[3]); c != nil {
			r.CAType = c[1]
		}
		if f := ibdevFwRe.FindStringSubmatch(m[3]); f != nil {
			r.Firmware = f[1]
		}
		if s, ok := PortState(m[5]); ok {
			r.PortState = s
		}
		out = append(out, r)
	}
	probs.cut(b, lines, !lastMatched)
	return out, probs.err()
}
