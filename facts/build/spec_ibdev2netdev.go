package build

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

var ibdev2netdevSniffRe = mustSniff(`(?m)^\S.*\bport \d+\b.*==> \S+ \((Up|Down)\)`)

func init() {
	register(Spec{
		Name:        "ibdev2netdev",
		Plugin:      "infiniband",
		Commands:    []string{"ibdev2netdev"},
		Sniff:       func(h []byte) bool { return ibdev2netdevSniffRe.Match(h) },
		Apply:       applyIBDev2Netdev,
		MissingHint: "ibdev2netdev ships with MLNX_OFED / DOCA-OFED (mlnx-tools)",
		Groups:      []string{"rdma_devices"},
		Live:        []LiveCommand{{Alts: [][]string{{"ibdev2netdev"}}}},
		Tools:       []Tool{{Name: "ibdev2netdev", Package: mlnxTools, Allow: []Grammar{{Bare: []string{"-v"}}}}},
	})
}

func applyIBDev2Netdev(s *facts.Snapshot, in Input) error {
	recs, err := parse.IBDev2Netdev(in.Data) // what parsed is kept; err names the lines that did not
	for _, r := range recs {
		ev := r.Evidence
		d := facts.Device{Name: r.Device, PCIAddress: r.PCIAddress, CAType: r.CAType, Firmware: r.Firmware}
		d.Evidence.Set("name", ev)
		if d.PCIAddress != "" {
			d.Evidence.Set("pci_address", ev)
		}
		if d.CAType != "" {
			d.Evidence.Set("ca_type", ev)
		}
		if d.Firmware != "" {
			d.Evidence.Set("firmware", ev)
		}
		p := facts.Port{Number: r.Port, Netdev: r.Netdev, State: r.PortState}
		p.Evidence.Set("number", ev)
		p.Evidence.Set("netdev", ev)
		if p.State != "" {
			p.Evidence.Set("state", ev)
		}
		d.Ports = []facts.Port{p}
		addDevice(s, in, d)

		n := facts.Netdev{Name: r.Netdev, RDMADevice: r.Device, RDMAPort: intRef(r.Port), OperState: strings.ToUpper(r.NetdevState)}
		n.Evidence.Set("rdma_device", ev)
		n.Evidence.Set("rdma_port", ev)
		n.Evidence.Set("operstate", ev)
		addNetdev(s, in, n)
	}
	return err
}

// intRef returns a pointer to v.
func intRef(v int) *int { return &v }
