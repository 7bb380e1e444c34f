package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

var ibqueryerrorsSniffRe = mustSniff(`(?m)^(Errors for (0x[0-9a-fA-F]+ )?"|## Summary: \d+ nodes checked)`)

func init() {
	register(Spec{
		Name:        "ibqueryerrors",
		FabricWide:  true,
		Plugin:      "infiniband",
		Commands:    []string{"ibqueryerrors"},
		Sniff:       func(h []byte) bool { return ibqueryerrorsSniffRe.Match(h) },
		Apply:       applyIBQueryErrors,
		MissingHint: "run `ibqueryerrors` (infiniband-diags) on a node with an ACTIVE InfiniBand port; never with -c/-k/-K, which clear the counters",
		Groups:      []string{"fabric_ports", "fabric_counters"},
		NotLive:     "it queries every port of the fabric; run it apart (read-only without -c/-k/-K)",
	})
}

// applyIBQueryErrors merges the ports ibqueryerrors listed into Fabric.Ports.
func applyIBQueryErrors(s *facts.Snapshot, in Input) error {
	out, err := parse.IBQueryErrors(in.Data) // parse.Problems: what parsed is kept
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	addFabricPorts(s, out.Ports)
	if r := fabricRefused(s, "ibqueryerrors", out.Refusal); r != nil {
		return r
	}
	return err
}
