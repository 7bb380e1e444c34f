package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:        "ip_link",
		Plugin:      "networking",
		Commands:    []string{"ip_link", "ip_-s_-d_link", "ip_-d_link", "ip_-s_link", "ip_-d_-s_link", "ip_-br_link", "ip_-o_link"},
		Sniff:       func(h []byte) bool { return ipSniffRe.Match(h) && !ipInetRe.Match(h) },
		Apply:       func(s *facts.Snapshot, in Input) error { return applyIP(s, in, parse.IPLink) },
		Priority:    40,
		MissingHint: "run `ip -s -d link` (sos networking plugin collects it)",
		Groups:      []string{"netdevs"},
		Live:        []LiveCommand{{Alts: [][]string{{"ip", "-s", "-d", "link"}}}},
		Tools:       []Tool{ipTool("link")},
	})
}
