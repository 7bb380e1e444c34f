package build

import (
	"path"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:   "systemctl",
		Plugin: "systemd",
		Commands: []string{"systemctl_status", "systemctl_is-active", "systemctl_list-units",
			"etc.init.d.openibd", "openibd"},
		Sniff: func(head []byte) bool {
			return (hasLinePrefix(head, "● ") || hasLinePrefix(head, "* ")) && strings.Contains(string(head), "Loaded: ")
		},
		Apply:       applySystemctl,
		MissingHint: "run `systemctl status opensm openibd rdma` (or `systemctl list-units`)",
		Groups:      []string{"services"},
		Live:        []LiveCommand{{Alts: [][]string{{"systemctl", "status", "opensm", "irqbalance"}}}},
		Tools: []Tool{{Name: "systemctl", Package: "systemd",
			Allow: []Grammar{{Bare: []string{"--no-pager"}, Pos: func(i int, s string) bool { return i == 0 && s == "status" || i > 0 && unitRe.MatchString(s) }, Need: 2}}}},
	})
}

// applySystemctl reads unit states into Host.Services from `systemctl status`, `is-active`
// (the unit is the file name's argument) and `list-units`. The OpenSM journal lines that
// `systemctl status opensm` shows are classified into Host.OpenSM.LogEvents too. MLNX_OFED's
// openibd init script output is recognised here as well: its [FAILED] steps become user-space
// messages ("Failed loading kernel module mlx5_core").
func applySystemctl(s *facts.Snapshot, in Input) error {
	base := path.Base(in.Path)
	switch {
	case strings.HasPrefix(base, "systemctl_is-active"):
		state, ev, ok := parse.SystemctlIsActive(in.Data)
		unit := strings.TrimSuffix(in.Args, ".service")
		if !ok || unit == "" {
			return nil
		}
		mergeHost(s, in, facts.Host{Services: map[string]facts.Service{unit: {Active: state, Evidence: ev}}})
	case strings.HasPrefix(base, "systemctl_list-units"):
		svcs, err := parse.SystemctlListUnits(in.Data)
		if err != nil {
			return err
		}
		mergeHost(s, in, facts.Host{Services: svcs})
	case strings.Contains(base, "openibd"):
		refs, err := parse.OpenIBD(in.Data)
		if err != nil {
			return err
		}
		mergeHost(s, in, facts.Host{Userspace: refs})
	default:
		svcs, err := parse.SystemctlStatus(in.Data)
		if err != nil {
			return err
		}
		mergeHost(s, in, facts.Host{Services: svcs})
		for unit := range svcs {
			if strings.Contains(unit, "opensm") {
				evs, err := parse.OpenSMLog(in.Data) // parse.Problems: the events are still good
				if _, ok := parse.AsProblems(err); err != nil && !ok {
					return err
				}
				addOpenSM(s, in, nil, nil, evs)
				if err != nil {
					return err
				}
				break
			}
		}
	}
	return nil
}
