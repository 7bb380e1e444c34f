package build

import (
	"bytes"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:     "ethtool_fec",
		Plugin:   "networking",
		Commands: []string{"ethtool_--show-fec"},
		Sniff:    func(h []byte) bool { return bytes.HasPrefix(h, []byte("FEC parameters for ")) },
		Apply: func(s *facts.Snapshot, in Input) error {
			f, ev, refusal, err := parse.EthtoolFEC(in.Data)
			if err != nil {
				return err
			}
			name, label := argNetdev(in)
			if n := titledNetdev(in.Data, "FEC parameters for "); n != "" {
				name = n
			}
			if name == "" {
				return nil
			}
			addNetdevCapture(s, in, facts.Netdev{Name: name, FEC: f, Evidence: ev}, label)
			if refusal != "" {
				return Refused(refusal)
			}
			return nil
		},
		MissingHint: "run `ethtool --show-fec <if>` for each Ethernet RDMA netdev",
		Groups:      []string{"ethtool_fec"},
		Live:        []LiveCommand{{Per: PerNetdev, Alts: [][]string{{"ethtool", "--show-fec", ArgNetdev}}}},
		Tools:       []Tool{ethtoolTool("--show-fec")},
	})
}
