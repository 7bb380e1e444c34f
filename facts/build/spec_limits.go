package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:        "limits",
		Paths:       []string{"etc/security/limits.conf", "etc/security/limits.d/*"},
		Apply:       applyLimits,
		MissingHint: "copy /etc/security/limits.conf and /etc/security/limits.d/",
		Groups:      []string{"memlock"},
	})
}

// applyLimits appends the memlock rules of one pam_limits file to Host.MemlockRules (all files
// add up, in path order as the builder applies them).
func applyLimits(s *facts.Snapshot, in Input) error {
	rules, err := parse.Limits(in.Data)
	if err != nil {
		return err
	}
	for _, r := range rules {
		if r.Item != "memlock" {
			continue
		}
		stamp(&r, in.Spec, in.Path)
		s.Host.MemlockRules = append(s.Host.MemlockRules, r)
	}
	return nil
}
