package build

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

// dmesgSniffRe is a kernel log line of an RDMA driver (or of GPUDirect's peer-memory module)
// with dmesg's timestamp, or with a syslog/journal prefix and the "kernel:" tag.
var dmesgSniffRe = mustSniff(`(?m)^(\[[^\]]+\]|[A-Z][a-z]{2} +\d+ [\d:]+ \S+ kernel:( \[[^\]]+\])?) (mlx[45]_core|mlx[45]_ib|mlx4_en|infiniband|ib_core|ib_ipoib|nvidia_peermem|nv_peer_mem)\b`)

func init() {
	register(Spec{
		Name:        "dmesg",
		Plugin:      "kernel",
		Commands:    []string{"dmesg", "journalctl_-k", "journalctl_--dmesg"},
		Paths:       []string{"var/log/messages*", "var/log/syslog*", "var/log/kern.log*"},
		Sniff:       func(h []byte) bool { return dmesgSniffRe.Match(h) },
		Stream:      applyDmesg,
		MissingHint: "run `dmesg -T` or `journalctl -k`",
		Groups:      []string{"kernel_log"},
		Live:        []LiveCommand{{Alts: [][]string{{"dmesg"}, {"journalctl", "-k", "-b", "--no-pager"}}, Fallback: true}},
		Tools: []Tool{{Name: "dmesg", Package: "util-linux", Allow: []Grammar{{}}},
			{Name: "journalctl", Package: "systemd", Allow: []Grammar{{Bare: []string{"-k", "-b", "--no-pager"}}}}},
	})
}

// applyDmesg appends the classified RDMA kernel log lines read from r to Host.KernelEvents; a
// log flooded with one kind of event keeps its first and last parse.MaxEventsPerKind, and the
// source's note counts the rest.
func applyDmesg(s *facts.Snapshot, in Input, r io.Reader) error {
	log, err := parse.ReadDmesg(r)
	mergeHost(s, in, facts.Host{KernelEvents: log.Events})
	if err != nil {
		return err
	}
	var ps parse.Problems
	for _, l := range log.Damaged {
		ps = append(ps, facts.Problem{Line: l.N, Text: facts.Clip(l.Text, facts.MaxMessageBytes), Why: "damaged: a byte that is not UTF-8, or a driver prefix whose device is not a PCI address"})
	}
	if log.Cut != nil {
		ps = append(ps, facts.Problem{Line: log.Cut.N, Text: facts.Clip(log.Cut.Text, facts.MaxMessageBytes), Why: "file ends mid-line: the capture was cut here"})
	}
	if len(ps) > 0 {
		return ps
	}
	if log.Lines > 0 && log.KernelLines == 0 {
		// Taken as a kernel log by its name, but no line has a kernel log's shape: an absent
		// RDMA line here proves nothing.
		return parse.Problems{{Line: 0, Why: fmt.Sprintf("none of its %d lines is a kernel log line (no dmesg [timestamp], no syslog \"kernel:\" tag, no RDMA driver prefix): not a kernel log", log.Lines)}}
	}
	if len(log.Events) == 0 && log.Lines > 0 {
		return Noted("a kernel log of %d lines, none from the RDMA stack (mlx4/mlx5, ib_*, rdma_*, IPoIB, peer memory)", log.Lines)
	}
	if len(log.Omitted) == 0 {
		return nil
	}
	kinds := slices.Sorted(maps.Keys(log.Omitted))
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", log.Omitted[k], k)
	}
	return Noted("kernel events not kept (only the first and last %d of each kind are): %s",
		parse.MaxEventsPerKind, strings.Join(parts, ", "))
}
