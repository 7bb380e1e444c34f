package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:     "proc_interrupts",
		Plugin:   "hardware",
		Paths:    []string{"proc/interrupts"},
		Commands: []string{"proc_interrupts", "cat_.proc.interrupts", "interrupts"},
		Sniff:    func(h []byte) bool { return interruptsSniffRe.Match(h) },
		Apply: func(s *facts.Snapshot, in Input) error {
			irqs, err := parse.Interrupts(in.Data)
			if err != nil {
				return err
			}
			names := irqOwnerNames(s)
			for _, q := range irqs {
				if parse.RelevantIRQ(q, names) {
					addIRQ(s, in, q)
				}
			}
			return nil
		},
		MissingHint: "copy /proc/interrupts (sos hardware plugin)",
		Groups:      []string{"irqs"},
	})
}

var interruptsSniffRe = mustSniff(`(?m)^\s+CPU0\s+CPU1|^\s*\d+:(?:\s+\d+)+\s+\S+.*@pci:`)

// irqOwnerNames are the netdev and driver names whose IRQs are kept besides mlx*/ib* ones
// (e.g. "enp1s0f0np0-TxRx-0" of a non-Mellanox RoCE NIC).
func irqOwnerNames(s *facts.Snapshot) []string {
	var names []string
	for _, n := range s.Netdevs {
		if n.Name != "lo" && n.Name != "unknown" {
			names = append(names, n.Name)
		}
		if n.Driver != "" {
			names = append(names, n.Driver)
		}
	}
	return names
}
