package build

import (
	"regexp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

// dmesgSniffRe is a kernel log line of an RDMA driver with dmesg's timestamp.
var dmesgSniffRe = regexp.MustCompile(`(?m)^\[[^\]]+\] (mlx[45]_core|mlx[45]_ib|mlx4_en|infiniband|ib_core|ib_ipoib)`)

func init() {
	register(Spec{
		Name:        "dmesg",
		Plugin:      "kernel",
		Commands:    []string{"dmesg", "journalctl_-k", "journalctl_--dmesg"},
		Paths:       []string{"var/log/messages*", "var/log/syslog*", "var/log/kern.log*"},
		Sniff:       func(h []byte) bool { return dmesgSniffRe.Match(h) },
		Apply:       applyDmesg,
		MissingHint: "run `dmesg -T` or `journalctl -k`",
		Groups:      []string{"kernel_log"},
		Live:        []LiveCommand{{Alts: [][]string{{"dmesg"}, {"journalctl", "-k", "-b", "--no-pager"}}, Fallback: true}},
		Tools: []Tool{{Name: "dmesg", Package: "util-linux", Allow: []Grammar{{}}},
			{Name: "journalctl", Package: "systemd", Allow: []Grammar{{Bare: []string{"-k", "-b", "--no-pager"}}}}},
	})
}

// applyDmesg appends the classified RDMA kernel log lines to Host.KernelEvents.
func applyDmesg(s *facts.Snapshot, in Input) error {
	evs, err := parse.Dmesg(in.Data)
	if err != nil {
		return err
	}
	mergeHost(s, in, facts.Host{KernelEvents: evs})
	return nil
}
