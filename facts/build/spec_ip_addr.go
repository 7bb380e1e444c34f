package build

import (
	"slices"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:   "ip_addr",
		Plugin: "networking",
		Commands: []string{"ip_addr", "ip_a", "ip_address", "ip_-o_addr", "ip_-d_address", "ip_-d_addr",
			"ip_-br_addr", "ip_-br_address", "ip_-4_addr", "ip_-6_addr", "ip_-s_addr"},
		Sniff:       func(h []byte) bool { return ipSniffRe.Match(h) && ipInetRe.Match(h) },
		Apply:       func(s *facts.Snapshot, in Input) error { return applyIP(s, in, parse.IPAddr) },
		Priority:    45,
		MissingHint: "run `ip -d address` (sos networking plugin collects `ip -o addr`)",
		Groups:      []string{"netdevs"},
		Live:        []LiveCommand{{Alts: [][]string{{"ip", "-d", "address"}}}, {Alts: [][]string{{"ip", "-o", "addr"}}}},
		Tools:       []Tool{ipTool("addr", "address")},
	})
}

var (
	ipSniffRe = mustSniff(`(?m)^\d+: \S+: <[A-Z_,-]*> mtu \d+`)
	ipInetRe  = mustSniff(`(?m)^\s+inet6? `)
)

// applyIP merges the interfaces of an ip addr/link output. VF lines without their PF header
// (a grep excerpt) are kept on an interface named "unknown".
func applyIP(s *facts.Snapshot, in Input, p func([]byte) ([]facts.Netdev, error)) error {
	nds, err := p(in.Data) // what parsed is kept; err names the lines that did not
	s.Netdevs = slices.Grow(s.Netdevs, len(nds))
	for _, n := range nds {
		if n.Name == "" {
			n.Name = "unknown"
		}
		addNetdev(s, in, n)
	}
	return err
}

// ipTool is iproute2's ip restricted to showing the given objects: `ip [-d] [-o] [-s] OBJ
// [show]`.
func ipTool(objects ...string) Tool {
	return Tool{Name: "ip", Package: "iproute2", Allow: []Grammar{{
		Bare: []string{"-d", "-o", "-s"}, Pos: posAt(oneOf(objects...), oneOf("show")), Need: 1,
	}}}
}
