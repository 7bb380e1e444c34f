package fleet

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// TestExpand: what is one snapshot and what is a folder of them, decided from what they hold.
func TestExpand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A corpus case is a folder of captures named like their commands: one snapshot.
	one := copyCase(t, dir, noSM, "captures")
	// A folder of snapshots: a sosreport, a gather output, a sosreport unpacked in a folder
	// named for the node, an archive, and a checksum file that is no node.
	write("fleet/sosreport-node01/sos_commands/infiniband/ibstat", string(fixtures.Read(t, "corpus/"+noSM+"/ibstat")))
	write("fleet/node02/rdmadoctor.yaml", "")
	write("fleet/node03/sosreport-node03-2024/sos_commands/infiniband/ibstat", "")
	write("fleet/node04.tar.xz", "")
	write("fleet/node04.tar.xz.sha256", "0000  node04.tar.xz\n")
	// A folder of nothing rdmadoctor knows is one (empty-handed) snapshot, not a fleet of none.
	write("empty/notes.txt", "")

	for _, tc := range []struct {
		paths, nodes, notRead []string
	}{
		{[]string{one}, []string{one}, nil},
		{[]string{filepath.Join(dir, "fleet")}, []string{
			filepath.Join(dir, "fleet/node02"), filepath.Join(dir, "fleet/node03"),
			filepath.Join(dir, "fleet/node04.tar.xz"), filepath.Join(dir, "fleet/sosreport-node01"),
		}, []string{filepath.Join(dir, "fleet/node04.tar.xz.sha256")}},
		{[]string{filepath.Join(dir, "fleet/node02"), filepath.Join(dir, "missing")}, []string{filepath.Join(dir, "fleet/node02"), filepath.Join(dir, "missing")}, nil},
		{[]string{filepath.Join(dir, "empty")}, []string{filepath.Join(dir, "empty")}, nil},
		// A corpus folder holds cases: a fleet.
		{[]string{dir}, []string{filepath.Join(dir, "captures"), filepath.Join(dir, "empty"), filepath.Join(dir, "fleet")}, nil},
	} {
		nodes, notRead := Expand(tc.paths)
		if diff := cmp.Diff(tc.nodes, nodes); diff != "" {
			t.Errorf("Expand(%q) nodes (-want +got):\n%s", tc.paths, diff)
		}
		if diff := cmp.Diff(tc.notRead, notRead); diff != "" {
			t.Errorf("Expand(%q) not read (-want +got):\n%s", tc.paths, diff)
		}
	}
}

func TestSnapshotName(t *testing.T) {
	for in, want := range map[string]string{
		"a/node01.tar.xz": "node01", "node01.tgz": "node01", "sosreport-node01-2024/": "sosreport-node01-2024", "x.tar": "x", ".tar": ".tar",
	} {
		if got := snapshotName(in); got != want {
			t.Errorf("snapshotName(%q) = %q, want %q", in, got, want)
		}
	}
}
