package build

import (
	"fmt"
	"io/fs"
	"sort"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(
		Spec{
			Name:        "sysfs_cpufreq",
			Root:        "sys/devices/system/cpu",
			Tree:        readCPUFreq,
			MissingHint: "copy /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor",
			Groups:      []string{"cpufreq"},
		},
		Spec{
			Name:        "thp",
			Paths:       []string{"sys/kernel/mm/transparent_hugepage/enabled"},
			Apply:       applyTHP,
			MissingHint: "copy /sys/kernel/mm/transparent_hugepage/enabled",
		},
	)
}

// readCPUFreq counts CPUs per scaling governor. The evidence of each governor is the first
// CPU's file that names it.
func readCPUFreq(s *facts.Snapshot, fsys fs.FS) []facts.Source {
	const glob = "sys/devices/system/cpu/cpu*/cpufreq/scaling_governor"
	files, err := fs.Glob(fsys, glob)
	if err != nil {
		return []facts.Source{{Name: "sysfs_cpufreq", Origin: glob, Status: facts.StatusError, Error: err.Error(), RecognisedBy: "path"}}
	}
	if len(files) == 0 {
		return []facts.Source{{Name: "sysfs_cpufreq", Origin: glob, Status: facts.StatusMissing,
			Error: "no scaling_governor files (no cpufreq driver, e.g. in a VM, or not captured)", RecognisedBy: "path"}}
	}
	sort.Strings(files)
	var out []facts.Source
	h := facts.Host{CPUFreqGovernors: map[string]int{}}
	for _, f := range files {
		b, err := readFile(fsys, f)
		if err != nil {
			out = append(out, facts.Source{Name: "sysfs_cpufreq", Origin: f, Status: facts.StatusError, Error: err.Error(), RecognisedBy: "path"})
			continue
		}
		gov, ok := parse.ScalingGovernor(b)
		if !ok {
			out = append(out, facts.Source{Name: "sysfs_cpufreq", Origin: f, Status: facts.StatusError,
				Error: fmt.Sprintf("%q is not a governor name", string(b)), RecognisedBy: "path"})
			continue
		}
		h.CPUFreqGovernors[gov]++
		h.Evidence.Set("cpufreq_governors."+gov, facts.Evidence{Source: "sysfs_cpufreq", Path: f, Text: gov})
	}
	if len(h.CPUFreqGovernors) > 0 {
		mergeHost(s, Input{Spec: "sysfs_cpufreq", Path: glob}, h)
		out = append(out, facts.Source{Name: "sysfs_cpufreq", Origin: glob, Status: facts.StatusOK, RecognisedBy: "path"})
	}
	return out
}

func applyTHP(s *facts.Snapshot, in Input) error {
	mode, ok := parse.THP(in.Data)
	l := parse.Lines(in.Data)
	if !ok {
		if len(l) == 0 {
			return fmt.Errorf("empty file")
		}
		return l[0].Errorf("no bracketed mode")
	}
	h := facts.Host{THP: mode}
	h.Evidence.Set("thp", l[0].Evidence())
	mergeHost(s, in, h)
	return nil
}
