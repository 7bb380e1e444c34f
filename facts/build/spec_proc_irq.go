package build

import (
	"errors"
	"io/fs"
	"path"
	"strconv"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:        "proc_irq",
		Plugin:      "hardware",
		Root:        "proc/irq",
		Tree:        readProcIRQ,
		MissingHint: "copy /proc/irq (sos hardware plugin)",
		Groups:      []string{"irq_affinity"},
	})
}

// readProcIRQ adds smp_affinity_list and effective_affinity_list to the IRQs /proc/interrupts
// kept, and to IRQs whose action directory (proc/irq/N/mlx5_comp0@pci:...) names an RDMA
// driver. Other IRQs are not recorded. An unreadable or malformed file is one error source.
func readProcIRQ(s *facts.Snapshot, fsys fs.FS) []facts.Source {
	const root = "proc/irq"
	src := facts.Source{Name: "proc_irq", Origin: root, Status: facts.StatusOK, RecognisedBy: "path"}
	entries, err := fs.ReadDir(fsys, root)
	if err != nil {
		src.Status, src.Error = facts.StatusError, err.Error()
		return []facts.Source{src}
	}
	known := map[int]bool{}
	for _, q := range s.IRQs {
		known[q.Number] = true
	}
	names := irqOwnerNames(s)
	var errs []facts.Source
	for _, e := range entries {
		num, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		dir := path.Join(root, e.Name())
		q := facts.IRQ{Number: num}
		if subs, err := fs.ReadDir(fsys, dir); err == nil {
			for _, sub := range subs {
				if sub.IsDir() && parse.RelevantIRQ(facts.IRQ{Name: sub.Name()}, names) {
					q.Name = sub.Name()
					q.Evidence.Set("name", facts.Evidence{Source: "proc_irq", Path: path.Join(dir, sub.Name()), Text: sub.Name()})
				}
			}
		}
		if !known[num] && q.Name == "" {
			continue
		}
		for _, f := range []string{"smp_affinity_list", "effective_affinity_list"} {
			p := path.Join(dir, f)
			b, err := fs.ReadFile(fsys, p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			var list string
			var cpus []int
			if err == nil {
				list, cpus, err = parse.IRQAffinityList(b)
			}
			if err != nil {
				errs = append(errs, facts.Source{Name: "proc_irq", Origin: p, Status: facts.StatusError, Error: err.Error(), RecognisedBy: "path"})
				continue
			}
			ev := facts.Evidence{Source: "proc_irq", Path: p, Text: list}
			if f == "smp_affinity_list" {
				q.SMPAffinityList, q.SMPAffinity = list, cpus
				q.Evidence.Set("smp_affinity_list", ev)
			} else {
				q.EffectiveAffinityList, q.EffectiveAffinity = list, cpus
				q.Evidence.Set("effective_affinity_list", ev)
			}
		}
		addIRQ(s, Input{Spec: "proc_irq", Path: dir}, q)
	}
	return append([]facts.Source{src}, errs...)
}
