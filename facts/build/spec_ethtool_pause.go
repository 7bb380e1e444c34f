package build

import (
	"bytes"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:     "ethtool_pause",
		Plugin:   "networking",
		Commands: []string{"ethtool_-a", "ethtool_--show-pause"},
		Sniff: func(h []byte) bool {
			return bytes.HasPrefix(h, []byte("Pause parameters for ")) || bytes.HasPrefix(h, []byte("Autonegotiate:"))
		},
		Apply: func(s *facts.Snapshot, in Input) error {
			p, ev, refusal, err := parse.EthtoolPause(in.Data)
			if err != nil {
				return err
			}
			name, label := argNetdev(in)
			if n := titledNetdev(in.Data, "Pause parameters for "); n != "" {
				name = n
			}
			if name == "" {
				return nil
			}
			addNetdevCapture(s, in, facts.Netdev{Name: name, Pause: p, Evidence: ev}, label)
			if refusal != "" {
				return Refused(refusal)
			}
			return nil
		},
		MissingHint: "run `ethtool -a <if>` for each RoCE netdev",
		Groups:      []string{"ethtool_pause"},
		Live:        []LiveCommand{{Per: PerNetdev, Alts: [][]string{{"ethtool", "-a", ArgNetdev}}}},
		Tools:       []Tool{ethtoolTool("-a")},
	})
}

// titledNetdev returns the interface an ethtool output names in its title line, e.g.
// "Pause parameters for ens5:" -> "ens5".
func titledNetdev(b []byte, title string) string {
	for _, l := range parse.Lines(b) {
		t := strings.TrimSpace(l.Text)
		if strings.HasPrefix(t, title) {
			return strings.TrimSuffix(strings.TrimPrefix(t, title), ":")
		}
	}
	return ""
}
