package fleet

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	nodesummary "github.com/rdmadoctor/rdmadoctor/facts/summary"
	"github.com/rdmadoctor/rdmadoctor/internal/diagnosis"
)

// TestSummariesShareEqualParts: the summaries of two copies of one corpus case keep their own
// host but share one copy of their devices, and each stays equal to the summary of its
// snapshot; a node of another case shares nothing of them.
func TestSummariesShareEqualParts(t *testing.T) {
	dir := t.TempDir()
	paths := []string{
		copyCase(t, dir, "005-h100-ib-ndr-sysfs-tree-link-downed-255", "a"),
		copyCase(t, dir, "005-h100-ib-ndr-sysfs-tree-link-downed-255", "b"),
		copyCase(t, dir, "017-cx4-back-to-back-linkup-initializing-no-sm-fdr-cable", "c"),
	}
	res := run(t, paths, Options{Summarize: nodesummary.Summarize})
	nodes := res.Fleet.Nodes
	if len(nodes) != 3 {
		t.Fatalf("%d nodes, want 3", len(nodes))
	}
	for _, n := range nodes {
		s, err := diagnosis.Open(filepath.Join(dir, n.Host))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(nodesummary.Summarize(s, n.Host), *n.Summary); diff != "" {
			t.Errorf("%s: kept summary differs from its snapshot's (-want +got):\n%s", n.Host, diff)
		}
	}
	a, b, c := nodes[0].Summary, nodes[1].Summary, nodes[2].Summary
	if a.Host != "a" || b.Host != "b" {
		t.Fatalf("hosts %q, %q, want a, b", a.Host, b.Host)
	}
	if len(a.Devices) == 0 || &a.Devices[0] != &b.Devices[0] {
		t.Error("two copies of one snapshot keep two copies of its devices")
	}
	if len(c.Devices) > 0 && &c.Devices[0] == &a.Devices[0] {
		t.Error("nodes of different snapshots share their devices")
	}
}
