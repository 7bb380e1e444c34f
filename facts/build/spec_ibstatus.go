package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:        "ibstatus",
		Plugin:      "infiniband",
		Commands:    []string{"ibstatus"},
		Sniff:       func(head []byte) bool { return hasLinePrefix(head, "Infiniband device '") },
		Apply:       applyIBStatus,
		Priority:    40,
		MissingHint: "install infiniband-diags (rdma-core) and run ibstatus",
	})
}

func applyIBStatus(s *facts.Snapshot, in Input) error {
	devs, err := parse.IBStatus(in.Data)
	if err != nil {
		return err
	}
	addDevices(s, in, devs)
	return nil
}
