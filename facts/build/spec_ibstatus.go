package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:     "ibstatus",
		Plugin:   "infiniband",
		Commands: []string{"ibstatus"},
		Sniff: func(head []byte) bool {
			return hasLinePrefix(head, "Infiniband device '") || hasLinePrefix(head, "Fatal error:  device '")
		},
		Apply:       applyIBStatus,
		Priority:    40,
		MissingHint: "install infiniband-diags (rdma-core) and run ibstatus",
		Groups:      []string{"rdma_devices", "ib_ports"},
		Live:        []LiveCommand{{Alts: [][]string{{"ibstatus"}}}},
		Tools:       []Tool{{Name: "ibstatus", Package: infinibandDiags, Allow: []Grammar{{Pos: posAt(devPortRe.MatchString)}}}},
	})
}

func applyIBStatus(s *facts.Snapshot, in Input) error {
	if r := parse.IBStatusRefusal(in.Data); r != nil {
		return refused(s, in, "ibstatus", r, 0) // no RDMA device registered
	}
	devs, err := parse.IBStatus(in.Data)
	addDevices(s, in, devs) // what parsed is kept; err names the lines that did not
	return err
}
