package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

var hcaIDRe = mustSniff(`(?m)^\s*hca_id:`)

func init() {
	register(Spec{
		Name:        "ibv_devinfo",
		Plugin:      "infiniband",
		Commands:    []string{"ibv_devinfo", "ibv_devinfo_-v"},
		Sniff:       func(h []byte) bool { return hcaIDRe.Match(h) },
		Apply:       applyIBVDevInfo,
		Priority:    30,
		MissingHint: "install ibverbs-utils / libibverbs-utils (rdma-core) and run ibv_devinfo -v",
		Groups:      []string{"rdma_devices", "ib_ports", "gids"},
		Live:        []LiveCommand{{Alts: [][]string{{"ibv_devinfo", "-v"}}}},
		Tools: []Tool{{Name: "ibv_devinfo", Package: ibverbsUtils,
			Allow: []Grammar{{Bare: []string{"-v", "-l"}, Valued: map[string]func(string) bool{"-d": isDev, "-i": isPort}}}}},
	})
}

func applyIBVDevInfo(s *facts.Snapshot, in Input) error {
	out, err := parse.IBVDevInfo(in.Data)
	in = addDevices(s, in, out.Devices) // before the error: what parsed before a bad line is kept
	if err != nil {
		return err
	}
	if len(out.Messages) > 0 {
		mergeHost(s, in, facts.Host{Userspace: out.Messages})
	}
	if len(out.Devices) == 0 {
		return refused(s, in, "ibv_devinfo", out.Refusal, 0)
	}
	return nil
}
