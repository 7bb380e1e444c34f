package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

// modprobeSniffRe is kmod modprobe's refusal to load a module.
var modprobeSniffRe = mustSniff(`(?m)^modprobe: ERROR: could not insert '`)

func init() {
	register(Spec{
		Name:        "modprobe",
		Plugin:      "kernel",
		Commands:    []string{"modprobe"},
		Sniff:       modprobeSniffRe.Match,
		Apply:       applyModprobe,
		MissingHint: "paste the output of `modprobe -v <module>` (e.g. nvidia-peermem)",
		Groups:      []string{"modprobe"},
		NotLive:     "modprobe loads modules: rdmadoctor never runs it; its output is read from captures",
	})
}

// applyModprobe appends what a modprobe run printed, per module, to Host.Modprobe.
func applyModprobe(s *facts.Snapshot, in Input) error {
	runs, err := parse.Modprobe(in.Data)
	stamp(&runs, in.Spec, in.Path)
	s.Host.Modprobe = append(s.Host.Modprobe, runs...)
	return err
}
