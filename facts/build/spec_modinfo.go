package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

// modinfoSniffRe is modinfo's first line: a module's file, or kmod's "not found".
var modinfoSniffRe = mustSniff(`(?m)^(filename: +/\S+\.ko|modinfo: ERROR: Module \S+ not found)`)

func init() {
	register(Spec{
		Name:        "modinfo",
		Plugin:      "kernel",
		Commands:    []string{"modinfo"},
		Sniff:       modinfoSniffRe.Match,
		Apply:       applyModinfo,
		MissingHint: "run `modinfo nvidia_peermem` (or the module in question)",
		Groups:      []string{"modinfo"},
		NotLive:     "read from sosreports (the kernel plugin's modinfo of the loaded modules) and pasted captures; the live gather's lsmod says what is loaded",
	})
}

// applyModinfo appends the modules modinfo describes (or says are not installed) to
// Host.ModuleInfo.
func applyModinfo(s *facts.Snapshot, in Input) error {
	mods, err := parse.Modinfo(in.Data)
	stamp(&mods, in.Spec, in.Path)
	s.Host.ModuleInfo = append(s.Host.ModuleInfo, mods...)
	return err
}
