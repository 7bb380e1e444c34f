package engine_test

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	factsummary "github.com/rdmadoctor/rdmadoctor/facts/summary"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// caseFS reads corpus case prefix into memory (without CASE.md and expect.json, which are not
// input), so that a test can vary one of its lines.
func caseFS(t testing.TB, prefix string) fstest.MapFS {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(fixtures.CorpusDir(t), prefix+"-*"))
	if len(m) != 1 {
		t.Fatalf("corpus case %s: %d folders", prefix, len(m))
	}
	fsys := loadMapFS(t, m[0])
	delete(fsys, "CASE.md")
	delete(fsys, "expect.json")
	return fsys
}

// vary returns a copy of fsys whose file name has the line old replaced by new: the one fact
// a fleet test changes on one node. It fails unless old is a whole line of the file.
func vary(t *testing.T, fsys fstest.MapFS, name, old, new string) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	for k, v := range fsys {
		out[k] = v
	}
	f, ok := fsys[name]
	if !ok {
		t.Fatalf("no %s", name)
	}
	lines := strings.Split(string(f.Data), "\n")
	found := false
	for i, l := range lines {
		if l == old {
			lines[i], found = new, true
		}
	}
	if !found {
		t.Fatalf("%s has no line %q", name, old)
	}
	out[name] = &fstest.MapFile{Data: []byte(strings.Join(lines, "\n"))}
	return out
}

// fleetOf builds each node's snapshot and summary, in host order.
func fleetOf(t testing.TB, nodes map[string]fstest.MapFS) *facts.Fleet {
	t.Helper()
	doc := &facts.Fleet{SchemaVersion: facts.FleetSchemaVersion}
	hosts := make([]string, 0, len(nodes))
	for h := range nodes {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	for _, h := range hosts {
		s, err := build.Snapshot(nodes[h], facts.SourceInfo{Kind: "captures", Path: h})
		if err != nil {
			t.Fatal(err)
		}
		doc.Nodes = append(doc.Nodes, factsummary.Summarize(s, h))
	}
	return doc
}

var (
	fleetOnce   sync.Once
	fleetEngine *engine.FleetEngine
	fleetErr    error
)

// builtinFleet is the built-in fleet rules, prepared once per test process.
func builtinFleet(t testing.TB) *engine.FleetEngine {
	t.Helper()
	fleetOnce.Do(func() {
		var set *engine.Set
		if set, fleetErr = engine.Load(engine.Builtin()); fleetErr == nil {
			fleetEngine, fleetErr = set.PrepareFleet(context.Background())
		}
	})
	if fleetErr != nil {
		t.Fatal(fleetErr)
	}
	return fleetEngine
}

func diagnoseFleet(t *testing.T, doc *facts.Fleet) ([]report.FleetDiagnosis, []report.Skipped) {
	t.Helper()
	ds, skipped, err := builtinFleet(t).Diagnose(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range skipped {
		if s.Failed {
			t.Errorf("%s: %s", s.ID, s.Reason)
		}
	}
	return ds, skipped
}

func fleetByID(ds []report.FleetDiagnosis, id string) []report.FleetDiagnosis {
	var out []report.FleetDiagnosis
	for _, d := range ds {
		if d.ID == id {
			out = append(out, d)
		}
	}
	return out
}

// Three copies of a corpus case are identical nodes: no fleet diagnosis at all, on every case
// the fleet rules' tests vary (and the fleet rules that can compare them do run).
func TestFleetIdenticalNodes(t *testing.T) {
	for _, prefix := range []string{"005", "034", "042", "110", "112", "121", "126"} {
		c := caseFS(t, prefix)
		ds, skipped := diagnoseFleet(t, fleetOf(t, map[string]fstest.MapFS{"node01": c, "node02": c, "node03": c}))
		if len(ds) != 0 {
			t.Errorf("%s on identical nodes: %+v", prefix, ds)
		}
		if prefix == "005" {
			for _, s := range skipped {
				if s.ID == "fleet-firmware-skew" || s.ID == "fleet-port-rate-below-peers" {
					t.Errorf("%s skipped on three nodes that have its facts: %s", s.ID, s.Reason)
				}
			}
		}
	}
}

// Corpus case 005 on three nodes, node02's mlx5_0 fw_ver varied from the real 28.41.1000 to
// 28.39.1002 (an older ConnectX-7 release): node02 is named with both lines.
func TestFleetFirmwareSkew(t *testing.T) {
	c := caseFS(t, "005")
	odd := vary(t, c, "sys/class/infiniband/mlx5_0/fw_ver", "28.41.1000", "28.39.1002")
	ds, _ := diagnoseFleet(t, fleetOf(t, map[string]fstest.MapFS{"node01": c, "node02": odd, "node03": c}))
	got := fleetByID(ds, "fleet-firmware-skew")
	if len(got) != 1 {
		t.Fatalf("fleet-firmware-skew: %+v", ds)
	}
	d := got[0]
	if d.Message != "node02 mlx5_0 runs 28.39.1002 while 2 nodes with PSID MT_0000000838 run 28.41.1000" ||
		strings.Join(d.Nodes, ",") != "node02" || d.Rank != 1 || d.Severity != "warning" || d.Confidence != "medium" {
		t.Errorf("diagnosis %+v", d)
	}
	if len(d.Evidence) < 2 || d.Evidence[0].Host != "node02" || d.Evidence[0].Text != "28.39.1002" ||
		d.Evidence[0].Path != "sys/class/infiniband/mlx5_0/fw_ver" || d.Evidence[len(d.Evidence)-1].Host != "node01" {
		t.Errorf("evidence %+v", d.Evidence)
	}
	if len(d.Fix) == 0 || !strings.Contains(d.Fix[0].Note, "on node02") || !strings.Contains(d.Fix[0].Note, "28.41.1000") {
		t.Errorf("fix %+v", d.Fix)
	}
	if d.HostList != "" {
		t.Errorf("host_list %q: the fleet report fills it", d.HostList)
	}
}

// One node alone: the comparison cannot be made, and the rule says so instead of passing.
func TestFleetOneNodeSkips(t *testing.T) {
	_, skipped := diagnoseFleet(t, fleetOf(t, map[string]fstest.MapFS{"node01": caseFS(t, "005")}))
	for _, s := range skipped {
		if s.ID == "fleet-firmware-skew" {
			if !strings.HasPrefix(s.Reason, "firmware versions on 1 of 1 node (a comparison needs 2)") {
				t.Errorf("reason %q", s.Reason)
			}
			return
		}
	}
	t.Errorf("fleet-firmware-skew not skipped on one node: %+v", skipped)
}

// Corpus case 005 on four nodes, the eight ConnectX-7 (PSID MT_0000000838) of node02 and node04
// varied from the real 28.41.1000 to 28.39.1002: a firmware update stopped half way, two nodes
// against two. No version is on most nodes, so there is no odd one out; each version is
// reported with its nodes (a tie once gave no diagnosis at all: a false "healthy").
func TestFleetFirmwareSkewEvenSplit(t *testing.T) {
	c := caseFS(t, "005")
	odd := c
	for _, dev := range []string{"mlx5_0", "mlx5_1", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7", "mlx5_8", "mlx5_9"} {
		odd = vary(t, odd, "sys/class/infiniband/"+dev+"/fw_ver", "28.41.1000", "28.39.1002")
	}
	ds, _ := diagnoseFleet(t, fleetOf(t, map[string]fstest.MapFS{"node01": c, "node02": odd, "node03": c, "node04": odd}))
	got := fleetByID(ds, "fleet-firmware-skew")
	if len(got) != 2 {
		t.Fatalf("fleet-firmware-skew: %+v", ds)
	}
	split := "no version is on more nodes than every other: 28.39.1002 on 2 nodes, 28.41.1000 on 2 nodes"
	want := map[string]string{
		"node01,node03": "adapters with PSID MT_0000000838 run 28.41.1000 on 2 nodes, and " + split,
		"node02,node04": "adapters with PSID MT_0000000838 run 28.39.1002 on 2 nodes, and " + split,
	}
	for _, d := range got {
		nodes := strings.Join(d.Nodes, ",")
		if msg, ok := want[nodes]; !ok || d.Message != msg || d.Confidence != "low" || d.Severity != "warning" {
			t.Errorf("diagnosis %+v", d)
		}
		if len(d.Evidence) == 0 || d.Evidence[0].Host != d.Nodes[0] || d.Evidence[0].Path != "sys/class/infiniband/mlx5_0/fw_ver" {
			t.Errorf("%s: evidence %+v", nodes, d.Evidence)
		}
		if nodes == "node02,node04" && (len(d.Fix) == 0 || !strings.Contains(d.Fix[0].Note, "on node02 node04 - ") ||
			!strings.HasSuffix(d.Fix[0].Note, "the peers run 28.41.1000")) {
			t.Errorf("fix %+v", d.Fix)
		}
	}
}

// Corpus case 005 on two nodes, node02's mlx5_0 port 1 varied from the real "4: ACTIVE" to
// "1: DOWN" (a rail down): 8 Active MT4129 ports against 7, one node each, so no count is on
// most nodes. node02 is compared with the most Active ports a peer has, and the message says so.
func TestFleetActivePortsEvenSplit(t *testing.T) {
	c := caseFS(t, "005")
	down := vary(t, c, "sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE", "1: DOWN")
	ds, _ := diagnoseFleet(t, fleetOf(t, map[string]fstest.MapFS{"node01": c, "node02": down}))
	got := fleetByID(ds, "fleet-active-ports-below-peers")
	if len(got) != 1 {
		t.Fatalf("fleet-active-ports-below-peers: %+v", ds)
	}
	d := got[0]
	if d.Message != "node02 has 7 Active MT4129 ports while node01 has 8, the most of its peers (no count is on more nodes than every other: 7 Active on node02, 8 Active on node01)" ||
		strings.Join(d.Nodes, ",") != "node02" || d.Confidence != "low" || d.Severity != "error" {
		t.Errorf("diagnosis %+v", d)
	}
	if len(d.Evidence) == 0 || d.Evidence[0].Host != "node02" || d.Evidence[0].Path != "sys/class/infiniband/mlx5_0/ports/1/state" {
		t.Errorf("evidence %+v", d.Evidence)
	}
}
