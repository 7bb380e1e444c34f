package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:        "proc_meminfo",
		Paths:       []string{"proc/meminfo"},
		Commands:    []string{"proc_meminfo", "cat_.proc.meminfo"},
		Sniff:       func(head []byte) bool { return hasLinePrefix(head, "MemTotal:") && hasLinePrefix(head, "MemFree:") },
		Apply:       applyMeminfo,
		MissingHint: "copy /proc/meminfo",
		Groups:      []string{"meminfo"},
	})
}

func applyMeminfo(s *facts.Snapshot, in Input) error {
	h, err := parse.Meminfo(in.Data)
	if err != nil {
		return err
	}
	mergeHost(s, in, h)
	return nil
}
