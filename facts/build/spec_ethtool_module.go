package build

import (
	"bytes"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:     "ethtool_module",
		Plugin:   "networking",
		Commands: []string{"ethtool_-m", "ethtool_--module-info", "ethtool_--dump-module-eeprom"},
		Sniff: func(h []byte) bool {
			t := bytes.TrimSpace(h)
			return bytes.HasPrefix(t, []byte("Identifier")) && bytes.Contains(h, []byte(": 0x")) ||
				bytes.HasPrefix(t, []byte("Cannot get module EEPROM"))
		},
		Apply: func(s *facts.Snapshot, in Input) error {
			m, refusal, err := parse.EthtoolModule(in.Data)
			if err != nil {
				return err
			}
			name, label := argNetdev(in)
			if name == "" {
				return nil
			}
			addNetdevCapture(s, in, facts.Netdev{Name: name, Module: &m}, label)
			if refusal != "" {
				return Refused(refusal)
			}
			return nil
		},
		MissingHint: "run `ethtool -m <if>` for each Ethernet RDMA netdev (not implemented for mlx5 IPoIB)",
		Groups:      []string{"ethtool_module"},
		Live:        []LiveCommand{{Per: PerNetdev, Alts: [][]string{{"ethtool", "-m", ArgNetdev}}}},
		Tools:       []Tool{ethtoolTool("-m")},
	})
}
