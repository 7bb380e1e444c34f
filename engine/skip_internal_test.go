package engine

import (
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// TestLiveNeeds: in a live run, how to get a missing group is what the gather noted when it
// tried (a file not present on this node, a tool not installed), never "copy /sys/...": the
// live gather reads the node's files itself. A sosreport or a folder of captures keeps the
// files to copy.
func TestLiveNeeds(t *testing.T) {
	// The notes facts/live writes (annotate.go), as a live gather of fixtures/live/root-h100 gave them.
	sources := []facts.Source{
		{Name: "sysfs_cpufreq", Status: facts.StatusMissing, Error: "not present on this node: /sys/devices/system/cpu"},
		{Name: "mst_status", Origin: "mst status", Status: facts.StatusMissing, Error: "mst not installed (package: NVIDIA MFT)"},
	}
	live := &facts.Snapshot{Source: facts.SourceInfo{Kind: "live"}, Sources: sources}
	captures := &facts.Snapshot{Source: facts.SourceInfo{Kind: "captures"}, Sources: sources}

	if n := groupNeed("cpufreq", live); n.How != "not present on this node: /sys/devices/system/cpu" || n.What != "CPU frequency governors" {
		t.Errorf("live cpufreq need = %+v", n)
	}
	if n := groupNeed("cpufreq", captures); !strings.Contains(n.How, "copy /sys/devices/system/cpu") {
		t.Errorf("captures cpufreq need = %+v, want the file to copy", n)
	}
	// A group whose inputs the gather noted nothing about: its commands, without the copies.
	if n := groupNeed("irqs", live); strings.Contains(n.How, "copy ") {
		t.Errorf("live irqs need = %+v: a live run does not say copy", n)
	}
	for _, g := range []string{"cpufreq", "irqs", "irq_affinity", "port_counters", "netdevs", "sysctl", "meminfo"} {
		if n := groupNeed(g, live); strings.Contains(n.How, "copy /") {
			t.Errorf("live %s need says copy: %+v", g, n)
		}
	}
}
