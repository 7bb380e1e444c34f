package build

import (
	"reflect"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

var (
	ibnetdiscoverSniffRe = mustSniff(`(?m)^(# Topology file:|(CA|SW)\s+\d+\s+\d+\s+0x[0-9a-f]+\s+\d+x)`)
	ibnodesSniffRe       = mustSniff(`(?m)^(Ca|Switch)\s*: 0x[0-9a-f]+ ports \d+ "`)
)

func init() {
	hint := "install infiniband-diags; needs an ACTIVE InfiniBand port (fails on RoCE)"
	fabric := []string{"fabric_nodes"}
	notLive := "not in the live plan: it queries the fabric with iblinkinfo from each ACTIVE port"
	register(
		// ibdiagnet writes the same topology as ibdiagnet2.ibnetdiscover.
		Spec{Name: "ibnetdiscover", Plugin: "infiniband", Commands: []string{"ibnetdiscover", "ibdiagnet2.ibnetdiscover"},
			Sniff: func(h []byte) bool { return ibnetdiscoverSniffRe.Match(h) }, Apply: fabricNodesApply("ibnetdiscover"), MissingHint: hint,
			Groups: fabric, NotLive: notLive},
		Spec{Name: "ibhosts", Plugin: "infiniband", Commands: []string{"ibhosts"},
			Apply: fabricNodesApply("ibhosts"), MissingHint: hint,
			Groups: fabric, NotLive: notLive},
		Spec{Name: "ibswitches", Plugin: "infiniband", Commands: []string{"ibswitches"},
			Apply: fabricNodesApply("ibswitches"), MissingHint: hint,
			Groups: fabric, NotLive: notLive},
		// ibnodes lists both CAs and switches, so loose ibhosts/ibswitches captures are taken as it.
		Spec{Name: "ibnodes", Plugin: "infiniband", Commands: []string{"ibnodes"},
			Sniff: func(h []byte) bool { return ibnodesSniffRe.Match(h) }, Apply: fabricNodesApply("ibnodes"), MissingHint: hint,
			Groups: fabric, NotLive: notLive},
	)
}

func fabricNodesApply(tool string) func(*facts.Snapshot, Input) error {
	return func(s *facts.Snapshot, in Input) error {
		out, err := parse.IBNetDiscover(in.Data) // parse.Problems: the records returned are still good
		if _, ok := parse.AsProblems(err); err != nil && !ok {
			return err
		}
		for _, n := range out.Nodes {
			addFabricNode(s, n)
		}
		s.Fabric.Topology = append(s.Fabric.Topology, out.Links...)
		if r := fabricRefused(s, tool, out.Refusal); r != nil {
			return r
		}
		return err
	}
}

// addFabricNode merges n into s.Fabric.Nodes by GUID; facts already there win.
func addFabricNode(s *facts.Snapshot, n facts.FabricNode) {
	for i := range s.Fabric.Nodes {
		if s.Fabric.Nodes[i].GUID == n.GUID {
			fill(reflect.ValueOf(&s.Fabric.Nodes[i]).Elem(), reflect.ValueOf(n))
			return
		}
	}
	s.Fabric.Nodes = append(s.Fabric.Nodes, n)
}
