package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:     "ifconfig",
		Plugin:   "networking",
		Commands: []string{"ifconfig"},
		Sniff:    func(h []byte) bool { return ifconfigSniffRe.Match(h) },
		Apply: func(s *facts.Snapshot, in Input) error {
			nds, err := parse.Ifconfig(in.Data)
			if err != nil {
				return err
			}
			for _, n := range nds {
				addNetdev(s, in, n)
			}
			return nil
		},
		// ifconfig is older and coarser than ip; its facts lose to ip's.
		Priority:    55,
		MissingHint: "prefer `ip -d address`",
		Groups:      []string{"netdevs"},
		NotLive:     "not in the live plan: it runs `ip -d address` instead",
	})
}

var ifconfigSniffRe = mustSniff(`(?m)^\S+: flags=\d+<[A-Z_,]*>\s+mtu \d+`)
