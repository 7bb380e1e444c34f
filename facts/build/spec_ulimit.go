package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:        "ulimit",
		Commands:    []string{"ulimit"},
		Sniff:       func(head []byte) bool { return hasLinePrefix(head, "max locked memory") },
		Apply:       applyUlimit,
		MissingHint: "run `ulimit -a` in the context the RDMA jobs run in (batch job, container, service)",
		Groups:      []string{"memlock"},
		NotLive:     "a shell builtin: the limit that matters is the jobs' (batch job, container, service), not the gather's",
	})
}

// applyUlimit sets Host.Memlock from `ulimit -a` or `ulimit -l`; a capture without a memlock
// value adds nothing.
func applyUlimit(s *facts.Snapshot, in Input) error {
	lim, err := parse.Ulimit(in.Data) // with parse.Problems, lim (if any) is still kept
	if lim == nil {
		return err
	}
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	mergeHost(s, in, facts.Host{Memlock: lim})
	return err
}
