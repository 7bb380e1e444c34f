package build_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts/build"
)

// withPrefix is fsys with every path below dir/.
func withPrefix(dir string, fsys fstest.MapFS) fstest.MapFS {
	out := fstest.MapFS{}
	for p, f := range fsys {
		out[dir+"/"+p] = f
	}
	return out
}

// caseFS is corpus case num's files.
func caseFS(t *testing.T, num string) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	addTree(t, fsys, corpusDir(t, num))
	return fsys
}

// merge is the union of the file systems.
func merge(all ...fstest.MapFS) fstest.MapFS {
	out := fstest.MapFS{}
	for _, fsys := range all {
		for p, f := range fsys {
			out[p] = f
		}
	}
	return out
}

// TestClassifyFolder: what a folder is, told from what it holds, on real captures laid out as
// sites keep them.
func TestClassifyFolder(t *testing.T) {
	ibstat := corpusFile(t, "017", "ibstat")
	sys005 := caseFS(t, "005")
	captures003 := dirFS(t, corpusDir(t, "003"), "ibstat")
	sosreport := fstest.MapFS{"sos_commands/infiniband/ibstat": {Data: ibstat}}
	for _, tc := range []struct {
		name  string
		fsys  fstest.MapFS
		kind  build.FolderKind
		nodes []string
	}{
		{"a folder of captures", captures003, build.OneSnapshot, nil},
		{"a copied sys tree", sys005, build.OneSnapshot, nil},
		{"an unpacked sosreport in a folder named for the node", withPrefix("sosreport-node01-2024", sosreport), build.OneSnapshot, nil},
		{"racks of nodes", merge(
			withPrefix("rack1/node001", captures003), withPrefix("rack1/node002", sys005),
			withPrefix("rack2/node003/sosreport-node003-2024", sosreport),
		), build.Snapshots, []string{"rack1/node001", "rack1/node002", "rack2/node003"}},
		{"racks with a stray ibstat note at the top", merge(
			fstest.MapFS{"ibstat": {Data: []byte("see the ticket\n")}},
			withPrefix("rack1/node001", captures003), withPrefix("rack1/node002", sys005),
		), build.Snapshots, []string{"rack1/node001", "rack1/node002"}},
		{"two archives", fstest.MapFS{"node01.tar.xz": {}, "node02.tgz": {}, "SHA256SUMS": {}}, build.Snapshots, []string{"node01.tar.xz", "node02.tgz"}},
		{"nothing rdmadoctor reads", fstest.MapFS{"notes/todo.txt": {Data: []byte("x\n")}}, build.NoSnapshot, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := build.ClassifyFolder(tc.fsys)
			var nodes []string
			for _, n := range f.Nodes {
				nodes = append(nodes, n.Path)
			}
			if f.Kind != tc.kind {
				t.Errorf("kind %d, want %d (%+v)", f.Kind, tc.kind, f)
			}
			if diff := cmp.Diff(tc.nodes, nodes); diff != "" {
				t.Errorf("nodes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCheckOneSnapshot: diagnose refuses a folder of several snapshots, naming them and
// pointing to fleet, and accepts the folders it reads as one host's.
func TestCheckOneSnapshot(t *testing.T) {
	ibstat1, ibstat2 := corpusFile(t, "018", "ibstat_node01"), corpusFile(t, "017", "ibstat")
	sys005 := caseFS(t, "005")
	sys038 := caseFS(t, "038")
	sosreport := fstest.MapFS{"sos_commands/infiniband/ibstat": {Data: ibstat1}}
	for _, tc := range []struct {
		name string
		fsys fstest.MapFS
		want string // "" accepted, else a part of the error
	}{
		{"two copied sys trees", merge(withPrefix("a", sys005), withPrefix("b", sys038)),
			"snap is a folder of 2 snapshots, not one node's: a (sys/), b (sys/); run `rdmadoctor fleet snap` to diagnose each"},
		{"racks of nodes", merge(withPrefix("rack1/node001", sys005), withPrefix("rack1/node002", sosreport)),
			"snap is a folder of 2 snapshots, not one node's: rack1/node001 (sys/), rack1/node002 (sos_commands/)"},
		{"a capture beside a sosreport", merge(fstest.MapFS{"ibstat": {Data: ibstat2}}, withPrefix("sosreport-node01", sosreport)),
			"snap is a folder holding a snapshot, not one node's: sosreport-node01 (sos_commands/); captures beside them, of none of them: ibstat"},
		{"an archive in a folder", fstest.MapFS{"node01.tar.xz": {}}, "snap is a folder holding a snapshot, not one node's: node01.tar.xz (archive)"},
		{"one sosreport and its checksum", merge(withPrefix("sosreport-node01", sosreport), fstest.MapFS{"sosreport-node01.md5": {}}), ""},
		{"before/ and after/ of one host", fstest.MapFS{"before/ibstat": {Data: ibstat1}, "after/ibstat": {Data: ibstat2}}, ""},
		{"a folder of captures", fstest.MapFS{"ibstat": {Data: ibstat2}}, ""},
		{"a copied sys tree", sys005, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := build.CheckOneSnapshot(tc.fsys, "snap")
			var several *build.SeveralSnapshotsError
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("err = %v, want none", err)
			case tc.want != "" && !errors.As(err, &several):
				t.Errorf("err = %v, want a SeveralSnapshotsError", err)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Errorf("err = %v\nwant it to contain %s", err, tc.want)
			}
		})
	}
}

// TestClassifyFolderLinksOut: a symbolic link that leads out of the folder is neither looked
// into nor taken for a snapshot: it is NotRead, with its target, whether it leaves by its own
// target or through a link to a folder on its way (sub/up -> .., then sub/up/rel -> ../outside,
// which reads as sub/outside but is the folder's parent's outside).
func TestClassifyFolderLinksOut(t *testing.T) {
	top := filepath.Join(t.TempDir(), "top")
	for _, d := range []string{"node01", "node02", "sub", "../outside/sosreport-x/sos_commands"} {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"node01", "node02"} {
		if err := os.WriteFile(filepath.Join(top, n, "ibstat"), []byte("CA 'mlx5_0'\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"abs": filepath.Join(top, "..", "outside"), "rel": "../outside", "sub/up": "..", "sub/x": "up/rel"} {
		if err := os.Symlink(target, filepath.Join(top, link)); err != nil {
			t.Fatal(err)
		}
	}
	f := build.ClassifyFolder(os.DirFS(top))
	var nodes []string
	for _, n := range f.Nodes {
		nodes = append(nodes, n.Path)
	}
	if slices.ContainsFunc(nodes, func(p string) bool { return strings.Contains(p, "sosreport-x") }) {
		t.Errorf("nodes %v: a snapshot outside the folder was found through a link", nodes)
	}
	out := map[string]string{}
	for _, nr := range f.NotRead {
		if nr.LinkOut != "" {
			out[nr.Path] = nr.LinkOut
		}
	}
	want := map[string]string{"abs": filepath.Join(top, "..", "outside"), "rel": "../outside", "sub/up/rel": "../outside", "sub/x": "up/rel"}
	for p, target := range want {
		if out[p] != target {
			t.Errorf("NotRead %s: link out %q, want %q (all: %v)", p, out[p], target, out)
		}
	}
}
