package build

import (
	"bytes"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:     "ethtool_driver",
		Plugin:   "networking",
		Commands: []string{"ethtool_-i", "ethtool_--driver"},
		Sniff: func(h []byte) bool {
			return bytes.HasPrefix(h, []byte("driver: ")) && bytes.Contains(h, []byte("\nbus-info:"))
		},
		Apply: func(s *facts.Snapshot, in Input) error {
			n, refusal, err := parse.EthtoolDriver(in.Data)
			if err != nil {
				return err
			}
			name, label := argNetdev(in)
			if name == "" {
				return nil
			}
			n.Name = name
			addNetdevCapture(s, in, n, label)
			if refusal != "" {
				return Refused(refusal)
			}
			return nil
		},
		MissingHint: "run `ethtool -i <if>` for each RDMA netdev",
		Groups:      []string{"ethtool_driver"},
		Live:        []LiveCommand{{Per: PerNetdev, Alts: [][]string{{"ethtool", "-i", ArgNetdev}}}},
		Tools:       []Tool{ethtoolTool("-i")},
	})
}
