package html_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/facts/summary"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
	"github.com/rdmadoctor/rdmadoctor/fleet"
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

// fleetOf lays out the fleet report of members from their cases' reports (diagnosed once per
// case), with the fleet command's own grouping: for fleets too large to read node by node in a
// test (TestLargeFleetBounded). realistic reads its nodes with fleet.Run.
func fleetOf(t testing.TB, members []member, extra ...report.FleetNode) *report.Fleet {
	t.Helper()
	f := &report.Fleet{SchemaVersion: report.FleetSchemaVersion, Tool: report.Tool{Name: "rdmadoctor", Version: "test"}}
	for _, m := range members {
		r := caseReport(t, m.corpusCase)
		n := report.FleetNode{Host: m.host, Snapshot: "snapshots/" + m.host, Status: report.NodeOK,
			Diagnoses: r.Diagnoses, Skipped: r.Skipped, Incomplete: r.Incomplete}
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
	f.Groups = fleet.Groups(f.Nodes)
	f.FleetDiagnoses = []report.FleetDiagnosis{}
	f.Skipped = []report.Skipped{}
	return f
}

// runFleet lays each member out as a folder named by its host that links to its corpus case,
// adds the broken snapshots, and reads them all with fleet.Run, as `rdmadoctor fleet` does.
func runFleet(t testing.TB, members []member, broken ...string) *report.Fleet {
	t.Helper()
	engineOnce.Do(func() { builtin, engineErr = engine.New(context.Background(), engine.Options{}, engine.Builtin()) })
	if engineErr != nil {
		t.Fatal(engineErr)
	}
	dir, err := os.MkdirTemp("", "fleet-html-")
	if err != nil {
		t.Fatal(err)
	}
	tempDirs = append(tempDirs, dir)
	for _, m := range members {
		if err := os.Symlink(filepath.Join(fixtures.CorpusDir(t), m.corpusCase), filepath.Join(dir, m.host)); err != nil {
			t.Fatal(err)
		}
	}
	for _, host := range broken {
		if err := os.WriteFile(filepath.Join(dir, host+".tar.gz"), []byte("this is not a gzip stream\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var paths []string // as `rdmadoctor fleet gpu001 gpu002 ...` gives them: fleet.Expand does not follow links
	for _, m := range members {
		paths = append(paths, filepath.Join(dir, m.host))
	}
	for _, host := range broken {
		paths = append(paths, filepath.Join(dir, host+".tar.gz"))
	}
	fe, err := builtin.Set().PrepareFleet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	res, err := fleet.Run(context.Background(), paths, fleet.Options{Engine: builtin, Version: "test", Summarize: summary.Summarize, FleetRules: fe.Diagnose})
	if err != nil {
		t.Fatal(err)
	}
	return res.Fleet
}

// tempDirs are removed when the tests end (TestMain): the realistic fleet outlives one test.
var tempDirs []string

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
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
	realisticOnce.Do(func() {
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
		realisticFleet = runFleet(t, ms, nodeName(40))
	})
	if realisticFleet == nil {
		t.Fatal("the realistic fleet could not be built")
	}
	c := *realisticFleet // the tests change nodes and groups: each its own slices
	c.Nodes = append([]report.FleetNode(nil), c.Nodes...)
	c.Groups = append([]report.Group(nil), c.Groups...)
	return &c
}

var (
	realisticOnce  sync.Once
	realisticFleet *report.Fleet
)

func nodeName(i int) string { return fmt.Sprintf("gpu%03d", i) }
