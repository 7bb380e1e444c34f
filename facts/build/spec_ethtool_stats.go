package build

import (
	"bytes"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:     "ethtool_stats",
		Plugin:   "networking",
		Commands: []string{"ethtool_-S", "ethtool_--statistics"},
		Sniff:    func(h []byte) bool { return bytes.HasPrefix(h, []byte("NIC statistics:")) },
		Apply: func(s *facts.Snapshot, in Input) error {
			// What parsed is kept; err names the lines that did not.
			stats, ev, refusal, err := parse.EthtoolStats(in.Data)
			name, label := argNetdev(in)
			if name == "" {
				return err
			}
			addNetdevCapture(s, in, facts.Netdev{Name: name, Stats: stats, Evidence: ev}, label)
			if refusal != "" {
				return Refused(refusal)
			}
			return err
		},
		MissingHint: "run `ethtool -S <if>` for each RDMA netdev",
		Groups:      []string{"ethtool_stats"},
		Live:        []LiveCommand{{Per: PerNetdev, Alts: [][]string{{"ethtool", "-S", ArgNetdev}}, Counters: true}},
		Tools:       []Tool{ethtoolTool("-S")},
	})
}
