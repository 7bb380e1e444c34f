package fleet

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
	"github.com/rdmadoctor/rdmadoctor/internal/diagnosis"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// Corpus cases the fleets are built from (fixtures/corpus, real captures with CASE.md).
const (
	noSM     = "017-cx4-back-to-back-linkup-initializing-no-sm-fdr-cable" // ibstat: LinkUp but Initializing; mlxlink FDR on an EDR HCA
	afterSM  = "018-cx4-back-to-back-active-after-opensm-fdr-rate"        // the same link after opensm: Active, still FDR
	ibpanic  = "002-azure-a100-ibstat-ibpanic-missing-device"             // ibstat aborted: a partial input
	disabled = "029-mlx4-dual-fabric-port-locally-disabled-ibportstate"
)

var (
	engineOnce sync.Once
	testEngine *engine.Engine
	engineErr  error
)

// builtin is the built-in rule set compiled once, as the fleet command compiles it.
func builtin(t testing.TB) *engine.Engine {
	t.Helper()
	engineOnce.Do(func() {
		testEngine, engineErr = engine.New(context.Background(), engine.Options{SkipTypeCheck: true}, engine.Builtin())
	})
	if engineErr != nil {
		t.Fatal(engineErr)
	}
	return testEngine
}

// copyCase copies corpus case c to dir/name and returns that path.
func copyCase(t testing.TB, dir, c, name string) string {
	t.Helper()
	src := filepath.Join(fixtures.CorpusDir(t), c)
	dst := filepath.Join(dir, name)
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

func run(t *testing.T, paths []string, opts Options) *Result {
	t.Helper()
	opts.Engine = builtin(t)
	opts.Version = "test"
	res, err := Run(context.Background(), paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func group(t *testing.T, f *report.Fleet, id string) report.Group {
	t.Helper()
	for _, g := range f.Groups {
		if g.ID == id {
			return g
		}
	}
	t.Fatalf("no group %s in %+v", id, f.Groups)
	return report.Group{}
}

// TestFleetGroups: three copies of a case without a subnet manager and one of the same link
// after opensm, as one folder of snapshots beside an archive that is not one: the SM finding
// is one group on node[01-03], the FDR-on-EDR cable finding one group on all four, and the
// broken archive a node listed as unreadable with its error.
func TestFleetGroups(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"node01", "node02", "node03"} {
		copyCase(t, dir, noSM, n)
	}
	copyCase(t, dir, afterSM, "node10")
	if err := os.WriteFile(filepath.Join(dir, "node11.tar.gz"), []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := Expand([]string{dir})
	paths := in.Nodes
	if len(paths) != 5 || len(in.NotRead) != 0 {
		t.Fatalf("Expand: %q, not read %q", paths, in.NotRead)
	}
	res := run(t, paths, Options{})
	f := res.Fleet

	var hosts, statuses []string
	for _, n := range f.Nodes {
		hosts = append(hosts, n.Host)
		statuses = append(statuses, n.Status)
	}
	if diff := cmp.Diff([]string{"node01", "node02", "node03", "node10", "node11"}, hosts); diff != "" {
		t.Errorf("hosts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"ok", "ok", "ok", "ok", "unreadable"}, statuses); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	if bad := f.Nodes[4]; !strings.Contains(bad.Error, "node11.tar.gz") || len(bad.Diagnoses) != 0 || bad.Summary != nil {
		t.Errorf("unreadable node: %+v", bad)
	}
	if res.Unreadable != 1 || res.Worst != "critical" {
		t.Errorf("unreadable %d, worst %q; want 1, critical", res.Unreadable, res.Worst)
	}

	sm := group(t, f, "ib-port-no-subnet-manager")
	if sm.HostList != "node[01-03]" || sm.Subjects != 3 || sm.Severity != "critical" || !strings.Contains(sm.Example, "LinkUp but Initializing") {
		t.Errorf("ib-port-no-subnet-manager group: %+v", sm)
	}
	if f.Groups[0].ID != "ib-port-no-subnet-manager" {
		t.Errorf("first group %s, want the critical one", f.Groups[0].ID)
	}
	speed := group(t, f, "link-speed-degraded")
	if diff := cmp.Diff([]string{"node01", "node02", "node03", "node10"}, speed.Nodes); diff != "" || speed.HostList != "node[01-03,10]" {
		t.Errorf("link-speed-degraded nodes %q (%s), want node[01-03,10]:\n%s", speed.Nodes, speed.HostList, diff)
	}
	if len(f.FleetDiagnoses) != 0 || f.FleetDiagnoses == nil {
		t.Errorf("fleet diagnoses without fleet rules: %v", f.FleetDiagnoses)
	}
}

// TestFleetSameAsDiagnose: each node of a fleet has the diagnoses diagnose gives its snapshot
// alone, with the rules compiled for that snapshot only (the path of `diagnose`).
func TestFleetSameAsDiagnose(t *testing.T) {
	cases := []string{noSM, afterSM, ibpanic, disabled}
	var paths []string
	for _, c := range cases {
		paths = append(paths, filepath.Join(fixtures.CorpusDir(t), c))
	}
	res := run(t, paths, Options{Workers: 3})
	set, err := engine.Load(engine.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	byHost := map[string]report.FleetNode{}
	for _, n := range res.Fleet.Nodes {
		byHost[n.Host] = n
	}
	for _, c := range cases {
		s, err := diagnosis.Open(filepath.Join(fixtures.CorpusDir(t), c))
		if err != nil {
			t.Fatal(err)
		}
		e, err := set.Prepare(context.Background(), engine.Options{SkipTypeCheck: true, Rules: set.Runnable(s)})
		if err != nil {
			t.Fatal(err)
		}
		r, err := diagnosis.Diagnose(context.Background(), e, s, diagnosis.Options{MinSeverity: "info"}, "test")
		if err != nil {
			t.Fatal(err)
		}
		n, ok := byHost[c]
		if !ok {
			t.Fatalf("no node %s in the fleet", c)
		}
		if diff := cmp.Diff(r.Diagnoses, n.Diagnoses); diff != "" {
			t.Errorf("%s: fleet diagnoses differ from diagnose (-diagnose +fleet):\n%s", c, diff)
		}
		if diff := cmp.Diff(r.Skipped, n.Skipped); diff != "" {
			t.Errorf("%s: skipped differ (-diagnose +fleet):\n%s", c, diff)
		}
	}
	if n := byHost[ibpanic]; n.Status != report.NodePartial || len(n.Incomplete) == 0 {
		t.Errorf("%s: status %s, incomplete %q; want partial naming ibstat", ibpanic, n.Status, n.Incomplete)
	}
}

// TestFleetMinSeverity: --min-severity hides a node's info diagnoses (and their group), but
// the worst severity the exit code is decided from still sees them.
func TestFleetMinSeverity(t *testing.T) {
	res := run(t, []string{filepath.Join(fixtures.CorpusDir(t), disabled)}, Options{Diagnosis: diagnosis.Options{MinSeverity: "warning"}})
	if len(res.Fleet.Groups) != 0 || len(res.Fleet.Nodes[0].Diagnoses) != 0 {
		t.Errorf("info diagnoses shown above --min-severity warning: %+v", res.Fleet.Groups)
	}
	if res.Worst != "info" {
		t.Errorf("worst %q, want info (hidden, but there)", res.Worst)
	}
}

// TestFleetIgnore: the site's ignore list takes a rule out of every node's report and out of
// the groups; an ignored diagnosis does not count for the worst severity.
func TestFleetIgnore(t *testing.T) {
	dir := t.TempDir()
	paths := []string{copyCase(t, dir, noSM, "node01"), copyCase(t, dir, noSM, "node02")}
	res := run(t, paths, Options{Diagnosis: diagnosis.Options{Ignore: []report.Ignore{{ID: "ib-port-no-subnet-manager", Reason: "test"}}}})
	for _, g := range res.Fleet.Groups {
		if g.ID == "ib-port-no-subnet-manager" {
			t.Errorf("ignored rule grouped: %+v", g)
		}
	}
	if res.Worst == "critical" {
		t.Error("an ignored critical diagnosis counts for the exit code")
	}
}

// TestFleetDuplicateHosts: different snapshots of one host (three copies of one capture, each
// in a folder named node01) are all kept, the second labelled host#2.
func TestFleetDuplicateHosts(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, d := range []string{"a", "b", "c"} {
		paths = append(paths, copyCase(t, filepath.Join(dir, d), noSM, "node01"))
	}
	res := run(t, Expand(paths).Nodes, Options{})
	var hosts []string
	for _, n := range res.Fleet.Nodes {
		hosts = append(hosts, n.Host)
	}
	if diff := cmp.Diff([]string{"node01", "node01#2", "node01#3"}, hosts); diff != "" {
		t.Errorf("hosts (-want +got):\n%s", diff)
	}
	if g := group(t, res.Fleet, "ib-port-no-subnet-manager"); g.HostList != "node01,node01#[2-3]" {
		t.Errorf("host list %q", g.HostList)
	}
}

// TestLabelerOrder: labels follow the input order whatever order the workers finish reading in.
func TestLabelerOrder(t *testing.T) {
	l := newLabeler(4)
	got := make([]string, 4)
	var wg sync.WaitGroup
	for _, i := range []int{3, 1, 2, 0} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = l.label(i, "gpu07", "snap")
		}()
	}
	wg.Wait()
	if diff := cmp.Diff([]string{"gpu07", "gpu07#2", "gpu07#3", "gpu07#4"}, got); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	l = newLabeler(3)
	got = []string{l.label(0, "", "node01"), l.label(1, "node01", "x"), l.label(2, "", "node01#2")}
	if diff := cmp.Diff([]string{"node01", "node01#2", "node01#2#2"}, got); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
}
