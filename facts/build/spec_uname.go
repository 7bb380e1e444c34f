package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(
		Spec{
			Name:        "uname",
			Plugin:      "kernel",
			Commands:    []string{"uname"},
			Sniff:       func(head []byte) bool { return hasLinePrefix(head, "Linux ") && len(parse.Lines(head)) == 1 },
			Apply:       applyUname,
			MissingHint: "run `uname -a`",
			Live:        []LiveCommand{{Alts: [][]string{{"uname", "-r"}}}},
			Tools:       []Tool{{Name: "uname", Package: "coreutils", Allow: []Grammar{{Bare: []string{"-r", "-n"}}}}},
		},
		Spec{
			Name:        "hostname",
			Plugin:      "host",
			Commands:    []string{"hostname"},
			Paths:       []string{"etc/hostname"},
			Apply:       applyUname,
			MissingHint: "run hostname",
			Live:        []LiveCommand{{Alts: [][]string{{"hostname"}}}},
			Tools:       []Tool{{Name: "hostname", Package: "hostname", Allow: []Grammar{{}}}},
		},
	)
}

// applyUname sets Host.Hostname and Host.Kernel from `uname -a`/`-r`, `hostname` or /etc/hostname.
func applyUname(s *facts.Snapshot, in Input) error {
	h, err := parse.Uname(in.Data)
	if err != nil {
		return err
	}
	mergeHost(s, in, h)
	return nil
}
