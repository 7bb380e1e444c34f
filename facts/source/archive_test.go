package source_test

import (
	"archive/tar"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

const top = "sosreport-node01-2024-05-01-abcdefg/"

// sosMembers is a small sosreport in the layout sos writes: one top folder, plugin folders,
// copied files, links at the top and directory links in sys/.
func sosMembers() []member {
	return []member{
		dir(top),
		dir(top + "sos_commands/"),
		dir(top + "sos_commands/infiniband/"),
		reg(top+"sos_commands/infiniband/ibstat", "CA 'mlx5_0'\n"),
		reg(top+"sos_commands/pci/lspci_-nnvv", "81:00.0 Infiniband controller [0207]\n"),
		reg(top+"sos_commands/selinux/sestatus", "SELinux status: disabled\n"),
		reg(top+"sos_commands/logs/journalctl_--no-pager", "mlx5_core 0000:81:00.0: firmware version\n"),
		reg(top+"usr/lib/os-release", "ID=rhel\n"),
		reg(top+"var/lib/rpm/Packages", "binary\n"),
		reg(top+"var/log/messages", "kernel: mlx5_core\n"),
		reg(top+"sos_logs/sos.log", "log\n"),
		reg(top+"sys/devices/virtual/net/ib0/mtu", "2044\n"),
		symlink(top+"sys/class/net/ib0", "../../devices/virtual/net/ib0"),
		symlink(top+"lspci", "sos_commands/pci/lspci_-nnvv"),
		symlink(top+"lib", "usr/lib"),
		symlink(top+"proc/net", "self/net"), // as sos writes it: proc/self was not copied
		reg(top+"proc/interrupts", "CPU0\n"),
		{name: top + "sos_commands/hardware/proc_interrupts", typ: tar.TypeLink, link: top + "proc/interrupts"},
	}
}

// walk lists every path of fsys with a letter for its type: d, f or l.
func walk(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	var got []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		kind := "f "
		switch {
		case d.IsDir():
			kind = "d "
		case d.Type()&fs.ModeSymlink != 0:
			kind = "l "
		}
		got = append(got, kind+p)
		return nil
	})
	if err != nil {
		t.Fatalf("walk: %v", err)
	}
	return got
}

func TestOpenSosreportArchive(t *testing.T) {
	raw := tarBytes(t, sosMembers()...)
	for _, tc := range []struct {
		name   string
		data   []byte
		pureGo bool
	}{
		{"report.tar", raw, false},
		{"report.tar.gz", gzipBytes(t, raw), false},
		{"report.tar.xz", xzBytes(t, raw), false},
		{"report.tar.xz", xzBytes(t, raw), true},
		{"report.tar.bz2", bzip2Bytes(t, raw), false},
		// Told by content, not by name.
		{"report.bin", xzBytes(t, raw), false},
		{"report.tar.gz.renamed", raw, false},
	} {
		t.Run(fmt.Sprintf("%s pure-go=%v", tc.name, tc.pureGo), func(t *testing.T) {
			p := writeFile(t, t.TempDir(), tc.name, tc.data)
			fsys, info, err := source.OpenWith(p, source.Options{PureGoXZ: tc.pureGo})
			if err != nil {
				t.Fatal(err)
			}
			if want := (facts.SourceInfo{Kind: "sosreport", Path: p}); info != want {
				t.Errorf("info = %+v, want %+v", info, want)
			}
			// What no input reads is skipped by its path: the other plugins' folders, usr/,
			// var/lib/, sos_logs/. Links are kept wherever they are (lib -> usr/lib dangles).
			want := []string{
				"d .",
				"l lib",
				"l lspci",
				"d proc",
				"f proc/interrupts",
				"l proc/net",
				"d sos_commands",
				"d sos_commands/hardware",
				"f sos_commands/hardware/proc_interrupts",
				"d sos_commands/infiniband",
				"f sos_commands/infiniband/ibstat",
				"d sos_commands/pci",
				"f sos_commands/pci/lspci_-nnvv",
				"d sys",
				"d sys/class",
				"d sys/class/net",
				"l sys/class/net/ib0",
				"d sys/devices",
				"d sys/devices/virtual",
				"d sys/devices/virtual/net",
				"d sys/devices/virtual/net/ib0",
				"f sys/devices/virtual/net/ib0/mtu",
				"d var",
				"d var/log",
				"f var/log/messages",
			}
			if diff := cmp.Diff(want, walk(t, fsys)); diff != "" {
				t.Errorf("members (-want +got):\n%s", diff)
			}
			for name, body := range map[string]string{
				"lspci":                                 "81:00.0 Infiniband controller [0207]\n", // link followed
				"sys/class/net/ib0/mtu":                 "2044\n",                                 // through a directory link
				"sos_commands/hardware/proc_interrupts": "CPU0\n",                                 // hard link
				"sos_commands/infiniband/ibstat":        "CA 'mlx5_0'\n",
			} {
				got, err := fs.ReadFile(fsys, name)
				if err != nil || string(got) != body {
					t.Errorf("ReadFile(%s) = %q, %v; want %q", name, got, err, body)
				}
			}
			// A dangling link stays listed as a link; reading through it finds nothing.
			if _, err := fs.ReadFile(fsys, "proc/net/dev"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("proc/net/dev: err = %v, want not exist", err)
			}
		})
	}
}

// TestArchiveFS checks the in-memory fs against the fs.FS contract (testing/fstest).
func TestArchiveFS(t *testing.T) {
	var ms []member
	for _, m := range sosMembers() {
		if m.name != top+"proc/net" && m.name != top+"lib" { // fstest opens every entry: leave out the dangling links
			ms = append(ms, m)
		}
	}
	p := writeFile(t, t.TempDir(), "x.tar", tarBytes(t, ms...))
	fsys, _, err := source.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(fsys, "lspci", "sos_commands/infiniband/ibstat", "sys/devices/virtual/net/ib0/mtu", "sos_commands/hardware/proc_interrupts"); err != nil {
		t.Error(err)
	}
}

func TestOpenCapturesArchive(t *testing.T) {
	// A folder of captures without a top sosreport folder keeps every member, at any depth.
	raw := tarBytes(t,
		reg("./ibstat.txt", "CA 'mlx5_0'\n"),
		reg("./node02/ibstat", "CA 'mlx5_1'\n"),
		reg("./node02/usr/notes", "kept: not a sosreport folder\n"),
	)
	p := writeFile(t, t.TempDir(), "tickets.tgz", gzipBytes(t, raw))
	fsys, info, err := source.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := (facts.SourceInfo{Path: p}); info != want {
		t.Errorf("info = %+v, want %+v (gather detects the kind)", info, want)
	}
	want := []string{"d .", "f ibstat.txt", "d node02", "f node02/ibstat", "d node02/usr", "f node02/usr/notes"}
	if diff := cmp.Diff(want, walk(t, fsys)); diff != "" {
		t.Errorf("members (-want +got):\n%s", diff)
	}
}

func TestOpenWithFilter(t *testing.T) {
	raw := tarBytes(t, reg("a/keep", "1"), reg("a/drop", "2"), reg("b", "3"), reg("c/keep", "4"))
	p := writeFile(t, t.TempDir(), "x.tar", raw)
	fsys, _, err := source.OpenWith(p, source.Options{Want: func(name string) bool { return strings.HasSuffix(name, "keep") }})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"d .", "d a", "f a/keep", "d c", "f c/keep"}, walk(t, fsys)); diff != "" {
		t.Errorf("members (-want +got):\n%s", diff)
	}
}

// TestOpenLooksThroughWrapperFolders: a tarball of a captured tree made with
// `tar czf node01.tar.gz node01` opens at node01, but a bare sys/ tree is not descended into.
func TestOpenLooksThroughWrapperFolders(t *testing.T) {
	for name, tc := range map[string]struct {
		members []string
		want    []string
	}{
		"wrapped": {[]string{"node01/sys/class/infiniband/mlx5_0/fw_ver"},
			[]string{"d .", "d sys", "d sys/class", "d sys/class/infiniband", "d sys/class/infiniband/mlx5_0", "f sys/class/infiniband/mlx5_0/fw_ver"}},
		"bare": {[]string{"sys/class/infiniband/mlx5_0/fw_ver"},
			[]string{"d .", "d sys", "d sys/class", "d sys/class/infiniband", "d sys/class/infiniband/mlx5_0", "f sys/class/infiniband/mlx5_0/fw_ver"}},
		"files beside": {[]string{"node01/ibstat", "notes.txt"},
			[]string{"d .", "d node01", "f node01/ibstat", "f notes.txt"}},
	} {
		var ms []member
		for _, m := range tc.members {
			ms = append(ms, reg(m, "28.39.1002\n"))
		}
		p := writeFile(t, t.TempDir(), "x.tar.gz", gzipBytes(t, tarBytes(t, ms...)))
		fsys, _, err := source.Open(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(tc.want, walk(t, fsys)); diff != "" {
			t.Errorf("%s: members (-want +got):\n%s", name, diff)
		}
	}
}

func TestOpenMemberOverLimit(t *testing.T) {
	big := strings.Repeat("x", 2000)
	raw := tarBytes(t, reg("sos_commands/kernel/dmesg", big), reg("sos_commands/infiniband/ibstat", "CA 'mlx5_0'\n"))
	p := writeFile(t, t.TempDir(), "x.tar.gz", gzipBytes(t, raw))
	fsys, _, err := source.OpenWith(p, source.Options{MaxMember: 1000})
	if err != nil {
		t.Fatal(err)
	}
	// The member is listed (gather reports it as an error) but its content was not kept.
	st, err := fs.Stat(fsys, "sos_commands/kernel/dmesg")
	if err != nil || st.Size() != 2000 {
		t.Fatalf("stat = %v, %v; want size 2000", st, err)
	}
	_, err = fs.ReadFile(fsys, "sos_commands/kernel/dmesg")
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "larger than 1000 bytes") {
		t.Errorf("read = %v, want an error naming the archive and the limit", err)
	}
	if b, err := fs.ReadFile(fsys, "sos_commands/infiniband/ibstat"); err != nil || string(b) != "CA 'mlx5_0'\n" {
		t.Errorf("ibstat = %q, %v", b, err)
	}
}

// A member over packAbove is kept deflated and reads back the same, whole or streamed, and
// through a hard link.
func TestOpenPackedMember(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() <= 3<<20; i++ {
		fmt.Fprintf(&b, "[%d.000000] mlx5_core 0000:04:00.0 enp4s0np0: Link down\n", i)
	}
	big := b.String()
	hard := member{name: "dmesg_copy", typ: tar.TypeLink, link: "sos_commands/kernel/dmesg"}
	p := writeFile(t, t.TempDir(), "x.tar", tarBytes(t, reg("sos_commands/kernel/dmesg", big), hard))
	fsys, _, err := source.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(fsys, "sos_commands/kernel/dmesg", "dmesg_copy"); err != nil {
		t.Error(err)
	}
	for _, name := range []string{"sos_commands/kernel/dmesg", "dmesg_copy"} {
		got, err := fs.ReadFile(fsys, name)
		if err != nil || string(got) != big {
			t.Errorf("%s: read %d bytes, %v; want %d", name, len(got), err, len(big))
		}
	}
}

// A link out of the archive (a systemd *.wants link in etc/) no longer refuses it: it is kept,
// and opening it, or anything below it, fails without leaving the archive.
func TestOpenLinkOutOfArchive(t *testing.T) {
	raw := tarBytes(t, reg("sos_commands/infiniband/ibstat", "CA 'mlx5_0'\n"),
		symlink("etc/systemd/system/multi-user.target.wants/x.service", "/usr/lib/systemd/system/x.service"),
		symlink("etc/passwd", "../../../../etc/passwd"),
		symlink("sos_commands/infiniband/ibstat_-v", "/etc/shadow"))
	p := writeFile(t, t.TempDir(), "x.tar.gz", gzipBytes(t, raw))
	fsys, _, err := source.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"etc/systemd/system/multi-user.target.wants/x.service", "etc/passwd", "sos_commands/infiniband/ibstat_-v"} {
		if b, err := fs.ReadFile(fsys, name); err == nil || !strings.Contains(err.Error(), "leaves the archive") {
			t.Errorf("%s: read %q, %v; want an error saying the link leaves the archive", name, b, err)
		}
		if _, err := fs.ReadLink(fsys, name); err != nil {
			t.Errorf("%s: readlink: %v", name, err)
		}
	}
	if b, err := fs.ReadFile(fsys, "sos_commands/infiniband/ibstat"); err != nil || string(b) != "CA 'mlx5_0'\n" {
		t.Errorf("ibstat = %q, %v", b, err)
	}
}
