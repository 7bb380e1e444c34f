package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

var rdmaLinkSniffRe = mustSniff(`(?m)^(link |\d+/\d+: )\S+/\d+:? .*\bstate \w+`)

func init() {
	register(Spec{
		Name:        "rdma_link",
		Plugin:      "infiniband",
		Commands:    []string{"rdma_link", "rdma_link_show"},
		Sniff:       func(h []byte) bool { return rdmaLinkSniffRe.Match(h) },
		Apply:       applyRDMALink,
		MissingHint: "rdma (iproute2): rdma link show",
		Groups:      []string{"rdma_devices", "ib_ports"},
		Live:        []LiveCommand{{Alts: [][]string{{"rdma", "link"}}}},
		// `rdma dev` is allowed too: read-only, though no spec reads it yet.
		Tools: []Tool{{Name: "rdma", Package: "iproute2", Allow: []Grammar{{Pos: posAt(oneOf("link", "dev"), oneOf("show")), Need: 1}}}},
	})
}

func applyRDMALink(s *facts.Snapshot, in Input) error {
	devs, err := parse.RDMALink(in.Data) // parse.Problems: the devices returned are still good
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	for _, d := range devs {
		addDevice(s, in, d)
		for _, p := range d.Ports {
			if p.Netdev == "" {
				continue
			}
			ev := p.Evidence["netdev"]
			n := facts.Netdev{Name: p.Netdev, RDMADevice: d.Name, RDMAPort: intRef(p.Number)}
			n.Evidence.Set("rdma_device", ev)
			n.Evidence.Set("rdma_port", ev)
			addNetdev(s, in, n)
		}
	}
	return err
}
