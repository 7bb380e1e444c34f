package build

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// brokenLinks are symbolic links named like inputs (by name, and by sos path) that dangle or
// loop, with the Error each input is to have; ibstat is a real capture beside them.
var brokenLinks = []struct{ link, target, name, why string }{
	{"ibv_devinfo", "nothere", "ibv_devinfo", "dangling symbolic link to nothere: no such file in the snapshot"},
	{"ibstatus", "ibstatus_x", "ibstatus", "symbolic link loop: the link to ibstatus_x never reaches a file"},
	{"ibstatus_x", "ibstatus", "ibstatus", "symbolic link loop: the link to ibstatus never reaches a file"},
	{"sos_commands/infiniband/ibv_devinfo_-v", "ibv_devinfo_-v", "ibv_devinfo", "symbolic link loop: the link to ibv_devinfo_-v never reaches a file"},
	{"sos_commands/infiniband/ibdev2netdev", "../../hop", "ibdev2netdev", "not followed: a symbolic link to ../../hop, whose links lead out of the snapshot"},
	{"hop", "/etc/hostname", "", ""}, // named like no input: counted as a link out
}

// A symbolic link named like an input that dangles, loops or leads out through another link is
// that input's error, naming it (the report is incomplete), not "not in snapshot": in a folder
// (os.Root's errors) and in an archive (memFS's) alike.
func TestBrokenLinkIsTheInputsError(t *testing.T) {
	ibstat := fixtures.Read(t, "scenarios/back-to-back-no-sm/ibstat")
	dir := t.TempDir()
	var tarball bytes.Buffer
	tw := tar.NewWriter(&tarball)
	if err := os.MkdirAll(filepath.Join(dir, "sos_commands/infiniband"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ibstat"), ibstat, 0o644); err != nil {
		t.Fatal(err)
	}
	tw.WriteHeader(&tar.Header{Name: "ibstat", Mode: 0o644, Size: int64(len(ibstat))})
	tw.Write(ibstat)
	for _, l := range brokenLinks {
		if err := os.Symlink(l.target, filepath.Join(dir, l.link)); err != nil {
			t.Fatal(err)
		}
		tw.WriteHeader(&tar.Header{Name: l.link, Typeflag: tar.TypeSymlink, Linkname: l.target, Mode: 0o777})
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(t.TempDir(), "links.tar")
	if err := os.WriteFile(archive, tarball.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, archive} {
		t.Run(filepath.Base(p), func(t *testing.T) {
			fsys, info, err := source.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Snapshot(fsys, info)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range brokenLinks {
				if l.name != "" {
					wantUnread(t, s, l.link, l.name, l.why)
				}
			}
			if src := sourceAt(t, s, "hop -> /etc/hostname"); src.Name != "symlink" {
				t.Errorf("link out: %+v", src)
			}
			if src := sourceAt(t, s, "ibstat"); src.Status != facts.StatusOK {
				t.Errorf("ibstat beside the links: %+v", src)
			}
		})
	}
}

// In an archived sosreport, a link to a file that was not kept (nothing reads it) is not
// dangling: the file was there. It is neither an error nor named.
func TestLinkToFileNotKeptIsNoFault(t *testing.T) {
	var tarball bytes.Buffer
	tw := tar.NewWriter(&tarball)
	version := []byte("sosreport: 4.5.6\n")
	ibstat := fixtures.Read(t, "scenarios/back-to-back-no-sm/ibstat")
	for _, f := range []struct {
		name string
		data []byte
	}{
		{"sosreport-n1/version.txt", version},
		{"sosreport-n1/sos_commands/infiniband/ibstat", ibstat},
		{"sosreport-n1/sos_commands/process/lsof_-b_M_-n_-l", version}, // skipped: nothing reads it
	} {
		tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.data))})
		tw.Write(f.data)
	}
	tw.WriteHeader(&tar.Header{Name: "sosreport-n1/ibstat", Typeflag: tar.TypeSymlink, Linkname: "sos_commands/process/lsof_-b_M_-n_-l", Mode: 0o777})
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(t.TempDir(), "sosreport-n1.tar")
	if err := os.WriteFile(archive, tarball.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, info, err := source.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := fsys.(interface{ SkippedFiles() int }); !ok || c.SkippedFiles() == 0 {
		t.Fatalf("the test needs a skipped file: %T", fsys)
	}
	s, err := Snapshot(fsys, info)
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range s.Sources {
		if src.Origin == "ibstat" {
			t.Errorf("link to a file not kept: %+v", src)
		}
	}
	if src := sourceAt(t, s, "sos_commands/infiniband/ibstat"); src.Status != facts.StatusOK {
		t.Errorf("ibstat: %+v", src)
	}
}
