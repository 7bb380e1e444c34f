package fleet

import (
	"os"
	"path/filepath"
	"strings"
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
		}, []string{filepath.Join(dir, "fleet/node04.tar.xz.sha256") + ": not a snapshot (neither a folder nor an archive), not read"}},
		{[]string{filepath.Join(dir, "fleet/node02"), filepath.Join(dir, "missing")}, []string{filepath.Join(dir, "fleet/node02"), filepath.Join(dir, "missing")}, nil},
		{[]string{filepath.Join(dir, "empty")}, []string{filepath.Join(dir, "empty")}, nil},
		// A corpus folder holds cases: a fleet.
		{[]string{dir}, []string{filepath.Join(dir, "captures"), filepath.Join(dir, "empty"),
			filepath.Join(dir, "fleet/node02"), filepath.Join(dir, "fleet/node03"),
			filepath.Join(dir, "fleet/node04.tar.xz"), filepath.Join(dir, "fleet/sosreport-node01"),
		}, []string{filepath.Join(dir, "fleet/node04.tar.xz.sha256") + ": not a snapshot (neither a folder nor an archive), not read"}},
	} {
		in := Expand(tc.paths)
		if diff := cmp.Diff(tc.nodes, in.Nodes); diff != "" {
			t.Errorf("Expand(%q) nodes (-want +got):\n%s", tc.paths, diff)
		}
		if diff := cmp.Diff(tc.notRead, in.NotRead); diff != "" {
			t.Errorf("Expand(%q) not read (-want +got):\n%s", tc.paths, diff)
		}
	}
}

// TestExpandOnce: a snapshot given twice, by the same path, through a symbolic link or again
// in the folder of snapshots that holds it, is one node, with a note naming both arguments;
// two snapshots of one host are two nodes (TestFleetDuplicateHosts).
func TestExpandOnce(t *testing.T) {
	dir := t.TempDir()
	a := copyCase(t, filepath.Join(dir, "fleet"), noSM, "node01")
	b := copyCase(t, filepath.Join(dir, "fleet"), noSM, "node02")
	link := filepath.Join(dir, "latest")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(a) // the temporary folder may be below a link itself
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	in := Expand([]string{a, link, filepath.Join(dir, "fleet"), a + "/", missing, missing})
	if diff := cmp.Diff([]string{a, b, missing}, in.Nodes); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
	want := []string{
		a + " and " + link + ": the same snapshot, " + real + " given twice: read once, as " + a,
		a + " and " + a + ": the same path given twice: read once, as " + a,
		a + " and " + a + "/: the same path given twice: read once, as " + a,
		missing + " and " + missing + ": the same path given twice: read once, as " + missing,
	}
	if diff := cmp.Diff(want, in.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// racks lays real corpus captures out as a site keeps them, racks/rack1/node001/...: node001
// corpus 002 (ibstat), node002 corpus 005 (a copied sys/ tree), node003 corpus 003 (captures),
// node004 corpus 017 as an unpacked sosreport in a folder named for the node.
func racks(t *testing.T, dir string) string {
	t.Helper()
	root := filepath.Join(dir, "racks")
	copyCase(t, filepath.Join(root, "rack1"), "002-azure-a100-ibstat-ibpanic-missing-device", "node001")
	copyCase(t, filepath.Join(root, "rack1"), "005-h100-ib-ndr-sysfs-tree-link-downed-255", "node002")
	copyCase(t, filepath.Join(root, "rack2"), "003-h100-ib-ndr-frontend-eth-ports-disabled", "node003")
	sos := filepath.Join(root, "rack2/node004/sosreport-node004-2024/sos_commands/infiniband")
	if err := os.MkdirAll(sos, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sos, "ibstat"), fixtures.Read(t, "corpus/"+noSM+"/ibstat"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestExpandFoldersOfFolders: a folder of folders of snapshots is every snapshot inside, never
// one node with nothing about RDMA; a stray capture at its top does not make it one node, and
// is named as not read.
func TestExpandFoldersOfFolders(t *testing.T) {
	dir := t.TempDir()
	root := racks(t, dir)
	want := []string{
		filepath.Join(root, "rack1/node001"), filepath.Join(root, "rack1/node002"),
		filepath.Join(root, "rack2/node003"), filepath.Join(root, "rack2/node004"),
	}
	in := Expand([]string{root})
	if diff := cmp.Diff(want, in.Nodes); diff != "" {
		t.Errorf("racks: nodes (-want +got):\n%s", diff)
	}
	if len(in.NotRead)+len(in.Notes) != 0 {
		t.Errorf("racks: not read %q, notes %q", in.NotRead, in.Notes)
	}

	// A note named ibstat at the top of the racks: named, not read as a node with the racks in it.
	if err := os.WriteFile(filepath.Join(root, "ibstat"), []byte("ibstat of the head node: see the ticket\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in = Expand([]string{root})
	if diff := cmp.Diff(want, in.Nodes); diff != "" {
		t.Errorf("racks with ibstat at its top: nodes (-want +got):\n%s", diff)
	}
	if len(in.NotRead) != 1 || !strings.HasPrefix(in.NotRead[0], filepath.Join(root, "ibstat")+": a capture beside snapshot folders") {
		t.Errorf("racks with ibstat at its top: not read %q", in.NotRead)
	}

	// Corpus 301 holds an ibdiagnet2 run at its top and a second one in a folder: one snapshot,
	// and the note says how its folder was read.
	c301 := copyCase(t, dir, "301-ndr-cx7-quantum2-fabric-ibdiagnet2-full-run-switch-fw-mismatch-dup-nodedesc", "c301")
	in = Expand([]string{c301})
	if diff := cmp.Diff([]string{c301}, in.Nodes); diff != "" {
		t.Errorf("301: nodes (-want +got):\n%s", diff)
	}
	if len(in.Notes) != 1 || !strings.Contains(in.Notes[0], "in its folders run2-2025-03-15-skip-checks/, read as one host's") {
		t.Errorf("301: notes %q", in.Notes)
	}

	// A folder with nothing rdmadoctor reads, however deep: one snapshot, and a note says so.
	empty := filepath.Join(dir, "docs")
	if err := os.MkdirAll(filepath.Join(empty, "a/b"), 0o755); err != nil {
		t.Fatal(err)
	}
	in = Expand([]string{empty})
	if len(in.Nodes) != 1 || len(in.Notes) != 1 || !strings.Contains(in.Notes[0], "no snapshot found in it") {
		t.Errorf("docs: nodes %q, notes %q", in.Nodes, in.Notes)
	}
}

// TestFleetFoldersOfFolders: the racks are four nodes diagnosed, not one node without RDMA.
func TestFleetFoldersOfFolders(t *testing.T) {
	root := racks(t, t.TempDir())
	res := run(t, Expand([]string{root}).Nodes, Options{})
	var got []string
	for _, n := range res.Fleet.Nodes {
		got = append(got, n.Host+" "+string(n.Status))
	}
	if len(got) != 4 || res.NoRDMA != 0 || res.Unreadable != 0 {
		t.Errorf("nodes %q: %d without RDMA, %d unreadable; want 4 nodes with RDMA", got, res.NoRDMA, res.Unreadable)
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

// TestExpandLinkOut: an entry of a folder of snapshots that is a symbolic link out of it is not
// followed, and named with its target (and what to do).
func TestExpandLinkOut(t *testing.T) {
	dir := t.TempDir()
	fleetDir := filepath.Join(dir, "fleet")
	a := copyCase(t, fleetDir, noSM, "node01")
	copyCase(t, fleetDir, noSM, "node02")
	elsewhere := copyCase(t, filepath.Join(dir, "archive"), noSM, "node03")
	if err := os.Symlink(elsewhere, filepath.Join(fleetDir, "node03")); err != nil {
		t.Fatal(err)
	}
	in := Expand([]string{fleetDir})
	if diff := cmp.Diff([]string{a, filepath.Join(fleetDir, "node02")}, in.Nodes); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
	want := []string{filepath.Join(fleetDir, "node03") + ": a symbolic link to " + elsewhere + ", out of the folder: not followed (give its target as a PATH)"}
	if diff := cmp.Diff(want, in.NotRead); diff != "" {
		t.Errorf("not read (-want +got):\n%s", diff)
	}
}
