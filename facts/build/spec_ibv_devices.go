package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

var ibvDevicesHeadRe = mustSniff(`(?m)^\s*device\s+node GUID\s*$`)

func init() {
	register(Spec{
		Name:        "ibv_devices",
		Plugin:      "infiniband",
		Commands:    []string{"ibv_devices"},
		Sniff:       func(h []byte) bool { return ibvDevicesHeadRe.Match(h) },
		Apply:       applyIBVDevices,
		MissingHint: "install ibverbs-utils / libibverbs-utils (rdma-core) and run ibv_devices",
		Groups:      []string{"rdma_devices"},
		Live:        []LiveCommand{{Alts: [][]string{{"ibv_devices"}}}},
		Tools:       []Tool{{Name: "ibv_devices", Package: ibverbsUtils, Allow: []Grammar{{}}}},
	})
}

func applyIBVDevices(s *facts.Snapshot, in Input) error {
	out, err := parse.IBVDevices(in.Data)
	if _, partial := parse.AsProblems(err); err != nil && !partial {
		return err
	}
	in = addDevices(s, in, out.Devices)
	if len(out.Messages) > 0 {
		mergeHost(s, in, facts.Host{Userspace: out.Messages})
	}
	if rerr := refused(s, in, "ibv_devices", out.Refusal, len(out.Devices)); rerr != nil {
		return rerr
	}
	return err // the rows that could not be used make the source partial
}
