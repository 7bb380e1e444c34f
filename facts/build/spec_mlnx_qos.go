package build

import (
	"bytes"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:     "mlnx_qos",
		Plugin:   "mellanox",
		Commands: []string{"mlnx_qos"},
		Sniff: func(h []byte) bool {
			return bytes.Contains(h, []byte("Priority trust state:")) || bytes.Contains(h, []byte("PFC configuration:"))
		},
		Apply: func(s *facts.Snapshot, in Input) error {
			q, ev, err := parse.MlnxQoS(in.Data)
			if err != nil {
				return err
			}
			name, label := argNetdev(in)
			if name == "" || q == nil {
				return nil
			}
			addNetdevCapture(s, in, facts.Netdev{Name: name, QoS: q, Evidence: ev}, label)
			return nil
		},
		MissingHint: "run `mlnx_qos -i <if>` for each RoCE netdev (MLNX_OFED)",
		Groups:      []string{"qos"},
		NotLive:     "not in the live plan: mlnx_qos has no read-only grammar on the allow-list yet",
	})
}
