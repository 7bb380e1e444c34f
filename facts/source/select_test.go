package source_test

import (
	"archive/tar"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// skipped is the count of members an archive skipped by their path.
func skipped(t *testing.T, fsys fs.FS) int {
	t.Helper()
	c, ok := fsys.(interface{ SkippedFiles() int })
	if !ok {
		t.Fatalf("%T does not count the files it skipped", fsys)
	}
	return c.SkippedFiles()
}

// files lists the regular files of fsys with their sizes.
func files(t *testing.T, fsys fs.FS) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			out[p] = info.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sosCaptures are real captures where sos puts them, and a capture put at the report's top.
func sosCaptures(t *testing.T) []member {
	return []member{
		reg("sos_commands/infiniband/ibstat", string(fixtures.Read(t, "ibstat/cx4-back-to-back-active-node01.txt"))),
		reg("sos_commands/pci/lspci_-nnvv", string(fixtures.Read(t, "lspci/cx5-nn-pf-vfs.txt"))),
		reg("notes from the node", string(fixtures.Read(t, "ibstatus/roce-ndr.txt"))),
	}
}

// TestArchiveKeepsOnlyWhatIsRead: the cost of an unrelated member is flat, counted, not timed:
// whatever their number, the members nothing reads are skipped as the stream goes by (none is
// in the tree, each is counted) and the tree holds the captures' bytes alone. The snapshot is
// that of the captures alone, apart from the count.
func TestArchiveKeepsOnlyWhatIsRead(t *testing.T) {
	captures := sosCaptures(t)
	want := map[string]int64{}
	for _, c := range captures {
		want[c.name] = int64(len(c.body))
	}
	var base []string
	for _, n := range []int{0, 50, 2000} {
		ms := []member{dir(top)}
		dirs := []string{"etc/apt", "usr/share/doc/x", "var/lib/dpkg", "proc/1", "sys/module/x", "sos_commands/yum", "sos_logs"}
		for i := range n {
			if i == n/2 {
				for _, c := range captures {
					ms = append(ms, reg(top+c.name, c.body))
				}
			}
			// ibstat output: a content sniff would take it; nothing looks at it.
			ms = append(ms, reg(fmt.Sprintf("%s%s/f%d", top, dirs[i%len(dirs)], i), captures[0].body))
		}
		if n == 0 {
			for _, c := range captures {
				ms = append(ms, reg(top+c.name, c.body))
			}
		}
		p := writeFile(t, t.TempDir(), "r.tar.gz", gzipBytes(t, tarBytes(t, ms...)))
		fsys, info, err := source.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := skipped(t, fsys); got != n {
			t.Errorf("%d members: %d skipped", n, got)
		}
		if diff := cmp.Diff(want, files(t, fsys)); diff != "" {
			t.Errorf("%d members: files kept (-want +got):\n%s", n, diff)
		}
		s, err := build.Snapshot(fsys, info)
		if err != nil {
			t.Fatal(err)
		}
		lines := sourceLines(s)
		for i, l := range lines {
			lines[i] = strings.Replace(l, fmt.Sprintf(" %d other sosreport files", n), " N other sosreport files", 1)
		}
		if n == 0 {
			base = lines
			if !slices.Contains(lines, "ibstatus notes from the node ok ") {
				t.Errorf("the capture at the top was not read by its content: %q", lines)
			}
			continue
		}
		if diff := cmp.Diff(append(base, "unrecognized sos_commands/* unrecognized N other sosreport files not relevant to RDMA"), lines); diff != "" {
			t.Errorf("%d members: sources (-captures alone +with them):\n%s", n, diff)
		}
	}
}

// wantSource builds the snapshot of fsys and checks that one of its sources is want (a
// sourceLines line).
func wantSource(t *testing.T, fsys fs.FS, info facts.SourceInfo, want string) {
	t.Helper()
	s, err := build.Snapshot(fsys, info)
	if err != nil {
		t.Fatal(err)
	}
	if lines := sourceLines(s); !slices.Contains(lines, want) {
		t.Errorf("no source %q in %q", want, lines)
	}
}

// TestArchiveLearnsItIsASosreport: a report tarred without its top folder shows that it is one
// only when its sos_commands/ comes by; the members kept before are decided then, and the tree
// and the count are those of the same archive in the other order.
func TestArchiveLearnsItIsASosreport(t *testing.T) {
	captures := sosCaptures(t)
	unrelated := []member{reg("etc/apt/sources.list", captures[0].body), reg("var/lib/x", "x\n"), reg("sos_logs/sos.log", "log\n")}
	var got []map[string]int64
	for _, ms := range [][]member{append(append([]member{}, unrelated...), captures...), append(append([]member{}, captures...), unrelated...)} {
		p := writeFile(t, t.TempDir(), "r.tar", tarBytes(t, ms...))
		fsys, info, err := source.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if info.Kind != "sosreport" || skipped(t, fsys) != len(unrelated) {
			t.Errorf("kind %q, %d skipped; want sosreport, %d", info.Kind, skipped(t, fsys), len(unrelated))
		}
		got = append(got, files(t, fsys))
	}
	if diff := cmp.Diff(got[1], got[0]); diff != "" {
		t.Errorf("files kept, sos_commands/ last vs first (-first +last):\n%s", diff)
	}
}

// TestArchiveNamedLikeASosreport: a folder named sosreport-* that holds no sos_commands/ is a
// folder of captures after all, and every file of it is read, by content too (the archive is
// read again, keeping everything): no capture is lost to its name.
func TestArchiveNamedLikeASosreport(t *testing.T) {
	ibstat := string(fixtures.Read(t, "ibstat/cx4-back-to-back-active-node01.txt"))
	p := writeFile(t, t.TempDir(), "r.tar.xz", xzBytes(t, tarBytes(t,
		reg("sosreport-node01-notes/etc/pasted ibstat", ibstat), reg("sosreport-node01-notes/var/lib/x", "x\n"))))
	fsys, info, err := source.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int64{"etc/pasted ibstat": int64(len(ibstat)), "var/lib/x": 2}, files(t, fsys)); diff != "" {
		t.Errorf("files kept (-want +got):\n%s", diff)
	}
	wantSource(t, fsys, info, "ibstat etc/pasted ibstat ok ")
	// A pipe cannot be read again: refused, saying why, never read in part.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		b, _ := os.ReadFile(p)
		w.Write(b)
		w.Close()
	}()
	defer r.Close()
	if _, _, err := source.Open(fmt.Sprintf("/proc/self/fd/%d", r.Fd())); err == nil || !strings.Contains(err.Error(), "holds no sos_commands/") {
		t.Errorf("pipe: err = %v, want a refusal saying why", err)
	}
}

// TestArchiveListsRDMAPluginFiles: a file of an RDMA plugin folder that no spec reads is listed,
// not read; reading it says why.
func TestArchiveListsRDMAPluginFiles(t *testing.T) {
	p := writeFile(t, t.TempDir(), "r.tar", tarBytes(t, reg(top+"sos_commands/rdma/rdma_res_show", "0: mlx5_0: pd 4\n"), reg(top+"sos_commands/infiniband/ibstat", "CA 'mlx5_0'\n")))
	fsys, info, err := source.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadFile(fsys, "sos_commands/rdma/rdma_res_show"); err == nil || !strings.Contains(err.Error(), "not kept") {
		t.Errorf("read: %v, want not kept", err)
	}
	wantSource(t, fsys, info, "unrecognized sos_commands/rdma/rdma_res_show unrecognized no parser recognises this file by name or content")
}

// TestArchiveSeen: Options.Seen is told, as the stream goes by, of each member kept to be read,
// by its path below the report's top folder (a link of a sysfs tree too), never of one skipped
// or listed by its path; a member kept before its archive showed to be a sosreport is told by
// its path in the archive.
func TestArchiveSeen(t *testing.T) {
	captures := sosCaptures(t)
	ms := []member{dir(top), reg(top+"etc/apt/sources.list", "deb x\n")}
	for _, c := range captures {
		ms = append(ms, reg(top+c.name, c.body))
	}
	ms = append(ms, reg(top+"sos_commands/infiniband/not_a_spec_output", "x\n"),
		symlink(top+"sys/class/infiniband/mlx5_0", "../../devices/pci0000:00/0000:00:02.0/infiniband/mlx5_0"),
		reg(top+"sys/module/x/parameters/y", "1\n"))
	p := writeFile(t, t.TempDir(), "r.tar", tarBytes(t, ms...))
	var seen []string
	if _, _, err := source.OpenWith(p, source.Options{Seen: func(rel string) { seen = append(seen, rel) }}); err != nil {
		t.Fatal(err)
	}
	// Any file of a plugin folder a spec names is read (by its name, then its content).
	want := []string{"sos_commands/infiniband/ibstat", "sos_commands/pci/lspci_-nnvv", "notes from the node",
		"sos_commands/infiniband/not_a_spec_output", "sys/class/infiniband/mlx5_0"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("seen (-want +got):\n%s", diff)
	}

	// Without its top folder, the report shows it is one at its first sos_commands/ member.
	bare := []member{reg("notes", captures[2].body), reg("sos_commands/infiniband/ibstat", captures[0].body), reg("etc/hostname", "node01\n")}
	p = writeFile(t, t.TempDir(), "bare.tar", tarBytes(t, bare...))
	seen = nil
	if _, _, err := source.OpenWith(p, source.Options{Seen: func(rel string) { seen = append(seen, rel) }}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"notes", "sos_commands/infiniband/ibstat", "etc/hostname"}, seen); diff != "" {
		t.Errorf("seen in a report without top folder (-want +got):\n%s", diff)
	}
}

// TestFolderSeen: Options.Seen is told, for a sosreport folder, of each file a snapshot could
// read, by its path below the report's top folder, as for the same report archived, and never
// of one skipped or listed; in a folder that is not a sosreport, of every file.
func TestFolderSeen(t *testing.T) {
	captures := sosCaptures(t)
	ms := []member{reg(top+"etc/apt/sources.list", "deb x\n"), reg(top+"sos_commands/infiniband/not_a_spec_output", "x\n"),
		symlink(top+"sys/class/infiniband/mlx5_0", "../../devices/pci0000:00/0000:00:02.0/infiniband/mlx5_0"),
		reg(top+"sys/module/x/parameters/y", "1\n"), reg(top+"sos_commands/kernel/uname_-a", "Linux\n")}
	for _, c := range captures {
		ms = append(ms, reg(top+c.name, c.body))
	}
	root := t.TempDir()
	for _, m := range ms {
		p := filepath.Join(root, filepath.FromSlash(m.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if m.typ == tar.TypeSymlink {
			err = os.Symlink(m.link, p)
		} else {
			err = os.WriteFile(p, []byte(m.body), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var seen []string
	if _, _, err := source.OpenWith(root, source.Options{Seen: func(rel string) { seen = append(seen, rel) }}); err != nil {
		t.Fatal(err)
	}
	var archived []string
	if _, _, err := source.OpenWith(writeFile(t, t.TempDir(), "r.tar", tarBytes(t, ms...)), source.Options{Seen: func(rel string) { archived = append(archived, rel) }}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(archived)
	if diff := cmp.Diff(archived, seen); diff != "" || !slices.Contains(seen, "sos_commands/infiniband/ibstat") || slices.Contains(seen, "etc/apt/sources.list") {
		t.Errorf("seen in the folder %q (-archived +folder):\n%s", seen, diff)
	}

	folder := filepath.Join(root, top, "sos_commands", "infiniband")
	seen = nil
	if _, _, err := source.OpenWith(folder, source.Options{Seen: func(rel string) { seen = append(seen, rel) }}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"ibstat", "not_a_spec_output"}; !slices.Equal(seen, want) {
		t.Errorf("seen in a folder of captures: %q, want %q", seen, want)
	}
}

// TestStarted: Options.Started is called once, before the first member is Seen, when the
// decoder of an archive runs (xz-utils or not), and before a folder or a single capture is read.
func TestStarted(t *testing.T) {
	captures := sosCaptures(t)
	tarball := tarBytes(t, dir(top), reg(top+captures[0].name, captures[0].body), reg(top+"etc/hostname", "node01\n"))
	folder := t.TempDir()
	writeFile(t, folder, "ibstat", []byte(captures[0].body))
	for _, tc := range []struct {
		name string
		path string
		opt  source.Options
	}{
		{"tar", writeFile(t, t.TempDir(), "r.tar", tarball), source.Options{}},
		{"tar.gz", writeFile(t, t.TempDir(), "r.tar.gz", gzipBytes(t, tarball)), source.Options{}},
		{"tar.xz", writeFile(t, t.TempDir(), "r.tar.xz", xzBytes(t, tarball)), source.Options{}},
		{"tar.xz in Go", writeFile(t, t.TempDir(), "r.tar.xz", xzBytes(t, tarball)), source.Options{PureGoXZ: true}},
		{"folder", folder, source.Options{}},
		{"capture", writeFile(t, t.TempDir(), "ibstat", []byte(captures[0].body)), source.Options{}},
	} {
		var calls []string
		opt := tc.opt
		opt.Seen = func(rel string) { calls = append(calls, rel) }
		opt.Started = func() { calls = append(calls, "(started)") }
		if _, _, err := source.OpenWith(tc.path, opt); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(calls) == 0 || calls[0] != "(started)" || slices.Index(calls[1:], "(started)") >= 0 {
			t.Errorf("%s: calls %q, want Started once, before any member Seen", tc.name, calls)
		}
	}
}
