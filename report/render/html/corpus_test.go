package html_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// A node of a test fleet: a corpus case read under a host name.
type member struct {
	host, corpusCase string
}

var (
	engineOnce sync.Once
	builtin    *engine.Engine
	engineErr  error
	reportsMu  sync.Mutex
	reports    = map[string]*report.Report{}
)

// caseReport diagnoses one corpus case with the built-in rules (once per case and test binary).
func caseReport(t testing.TB, name string) *report.Report {
	t.Helper()
	engineOnce.Do(func() { builtin, engineErr = engine.New(context.Background(), engine.Options{}, engine.Builtin()) })
	if engineErr != nil {
		t.Fatal(engineErr)
	}
	reportsMu.Lock()
	defer reportsMu.Unlock()
	if r := reports[name]; r != nil {
		return r
	}
	fsys, info, err := source.Open(filepath.Join(fixtures.CorpusDir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	s, err := build.Snapshot(fsys, info)
	if err != nil {
		t.Fatal(err)
	}
	r, err := builtin.Diagnose(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	reports[name] = r
	return r
}

// unreadable is a snapshot that cannot be opened: a file named .tar.gz that is not gzip, and the
// error source.Open gives for it.
func unreadable(t testing.TB, host string) report.FleetNode {
	t.Helper()
	p := filepath.Join(t.TempDir(), host+".tar.gz")
	if err := os.WriteFile(p, []byte("this is not a gzip stream\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := source.Open(p)
	if err == nil {
		t.Fatalf("%s opened", p)
	}
	return report.FleetNode{Host: host, Snapshot: host + ".tar.gz", Status: report.NodeUnreadable, Error: err.Error(),
		Diagnoses: []report.Diagnosis{}, Skipped: []report.Skipped{}}
}

// fleetOf builds the fleet report of members the way the fleet command lays it out: one node
// per member with its case's diagnoses, the groups by rule id. Until the fleet command's own
// builder is there, groups are made here and host lists are plain lists.
func fleetOf(t testing.TB, members []member, extra ...report.FleetNode) *report.Fleet {
	t.Helper()
	f := &report.Fleet{SchemaVersion: report.FleetSchemaVersion, Tool: report.Tool{Name: "rdmadoctor", Version: "test"}}
	for _, m := range members {
		r := caseReport(t, m.corpusCase)
		n := report.FleetNode{Host: m.host, Hostname: m.host, Snapshot: "snapshots/" + m.host + "/" + m.corpusCase,
			Status: report.NodeOK, Diagnoses: r.Diagnoses, Skipped: r.Skipped, Incomplete: r.Incomplete,
			Summary: &facts.NodeSummary{Host: m.host}}
		if !r.Complete {
			n.Status = report.NodePartial
		}
		for _, d := range r.Diagnoses {
			if n.Worst == "" || report.SeverityRank(d.Severity) < report.SeverityRank(n.Worst) {
				n.Worst = d.Severity
			}
		}
		f.Nodes = append(f.Nodes, n)
	}
	f.Nodes = append(f.Nodes, extra...)
	sort.SliceStable(f.Nodes, func(i, j int) bool { return f.Nodes[i].Host < f.Nodes[j].Host })
	f.Groups = groups(f.Nodes)
	f.FleetDiagnoses = []report.FleetDiagnosis{}
	f.Skipped = []report.Skipped{}
	return f
}

func groups(nodes []report.FleetNode) []report.Group {
	byID := map[string]*report.Group{}
	for _, n := range nodes {
		seen := map[string]bool{}
		for _, d := range n.Diagnoses {
			g := byID[d.ID]
			if g == nil {
				g = &report.Group{ID: d.ID, Title: d.Title, Severity: d.Severity, Example: d.Message}
				byID[d.ID] = g
			}
			if report.SeverityRank(d.Severity) < report.SeverityRank(g.Severity) {
				g.Severity = d.Severity
			}
			g.Subjects++
			if !seen[d.ID] {
				seen[d.ID] = true
				g.Nodes = append(g.Nodes, n.Host)
			}
		}
	}
	out := []report.Group{}
	for _, g := range byID {
		g.HostList = strings.Join(g.Nodes, ",")
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		if a, b := report.SeverityRank(out[i].Severity), report.SeverityRank(out[j].Severity); a != b {
			return a < b
		}
		if len(out[i].Nodes) != len(out[j].Nodes) {
			return len(out[i].Nodes) > len(out[j].Nodes)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Corpus cases of the test fleets.
const (
	healthyH100 = "033-h100-pure-ib-ibdev2netdev-ipoib-down-is-normal"
	noSM        = "017-cx4-back-to-back-linkup-initializing-no-sm-fdr-cable"
	flapping    = "005-h100-ib-ndr-sysfs-tree-link-downed-255"
	memlock     = "110-sge-batch-job-ulimit-a-max-locked-memory-32kb-execd-not-restarted"
	pcieSlow    = "007-cx6-ocp3-adapter-x4-slot-gen1-insufficient-power"
	partialGIDs = "049-roce-bond-and-vxlan-same-ipv4-duplicate-v2-gids"
	hdrPartial  = "039-hdr-node-second-hca-disabled-plus-cx4lx-eth"
	oldFirmware = "046-aws-baremetal-cx7-200gbe-fw-update-required"
)

// realistic is a 40-node fleet: mostly healthy H100 nodes, three without a subnet manager, two
// with a flapping link, one each with a low memlock limit, a slow PCIe slot and old firmware,
// two read in part, and one snapshot that cannot be read.
func realistic(t testing.TB) *report.Fleet {
	t.Helper()
	var ms []member
	special := map[int]string{3: noSM, 4: noSM, 5: noSM, 11: flapping, 12: flapping, 17: memlock, 23: pcieSlow,
		29: oldFirmware, 31: partialGIDs, 33: hdrPartial}
	for i := 1; i <= 39; i++ {
		c := healthyH100
		if s, ok := special[i]; ok {
			c = s
		}
		ms = append(ms, member{host: nodeName(i), corpusCase: c})
	}
	return fleetOf(t, ms, unreadable(t, nodeName(40)))
}

func nodeName(i int) string { return fmt.Sprintf("gpu%03d", i) }
