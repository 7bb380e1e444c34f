package live_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/live/livetest"
)

// replace removes root/rel and lets make put something else there.
func replace(t *testing.T, root, rel string, make func(p string) error) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := make(p); err != nil {
		t.Fatal(err)
	}
}

// sourcesOf returns the sources of s named name.
func sourcesOf(s *facts.Snapshot, name string) []facts.Source {
	var out []facts.Source
	for _, src := range s.Sources {
		if src.Name == name {
			out = append(out, src)
		}
	}
	return out
}

// TestGatherSpecialFilesUnderRoot: a FIFO, a socket and a link leaving the root, where host files
// are copied from, are never opened (the FIFO would block the copy until the gather's deadline):
// each is named in rdmadoctor.yaml and its source is an error saying why, not "not present on
// this node", so the report is incomplete. The other host files are still copied.
func TestGatherSpecialFilesUnderRoot(t *testing.T) {
	e := livetest.New(t, "root-h100.txtar", livetest.Stubs())
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("MemTotal: 1 kB\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	replace(t, e.Root, "proc/interrupts", func(p string) error { return syscall.Mkfifo(p, 0o600) })
	replace(t, e.Root, "proc/meminfo", func(p string) error { return os.Symlink(outside, p) })
	sock := filepath.Join(e.Root, "etc/security/limits.d/sock")
	if err := os.MkdirAll(filepath.Dir(sock), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	start := time.Now()
	s, res, err := live.Snapshot(context.Background(), live.Options{Root: e.Root, Path: []string{e.Bin}, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("gather took %v: a FIFO under the root was waited on", d)
	}
	want := []live.Unreadable{
		{Path: "etc/security/limits.d/sock", Error: "not a regular file (socket)"},
		{Path: "proc/interrupts", Error: "not a regular file (FIFO)"},
		{Path: "proc/meminfo", Error: "not followed: a symbolic link to " + outside + ", which leaves the root " + e.Root},
	}
	if diff := cmp.Diff(want, res.Meta.Unreadable); diff != "" {
		t.Errorf("unreadable (-want +got):\n%s", diff)
	}
	for _, w := range []struct{ name, origin, error string }{
		{"proc_interrupts", "proc/interrupts", "not a regular file (FIFO)"},
		{"proc_meminfo", "proc/meminfo", want[2].Error},
	} {
		got := sourcesOf(s, w.name)
		wantSrc := []facts.Source{{Name: w.name, Origin: w.origin, Status: facts.StatusError, Error: w.error}}
		if diff := cmp.Diff(wantSrc, got); diff != "" {
			t.Errorf("%s sources (-want +got):\n%s", w.name, diff)
		}
	}
	var limitsErr bool
	for _, src := range sourcesOf(s, "limits") {
		if src.Origin == "etc/security/limits.d/sock" && src.Status == facts.StatusError {
			limitsErr = true
		}
	}
	if !limitsErr {
		t.Errorf("limits sources %+v: want the socket named as an error", sourcesOf(s, "limits"))
	}
	for _, p := range []string{"etc/security/limits.conf", "sys/kernel/mm/transparent_hugepage/enabled", "var/log/opensm.log"} {
		if _, ok := res.FS[p]; !ok {
			t.Errorf("%s not copied beside the special files", p)
		}
	}
}

// TestAnnotateAbandonedCopy: a copy the gather abandoned at its deadline (rdmadoctor.yaml names
// the task and the read that blocked) makes every source it would have given a timeout naming
// it, never "not present on this node"; an EINVAL (sysfs carrier of a down link) is no gap.
func TestAnnotateAbandonedCopy(t *testing.T) {
	e := livetest.New(t, "", nil) // an empty root: nothing copied, nothing run
	res := gatherEnv(t, e, live.Options{})
	s, err := build.Snapshot(res.FS, facts.SourceInfo{Kind: "live"})
	if err != nil {
		t.Fatal(err)
	}
	why := live.Abandoned + " while reading proc/interrupts (the read blocked)"
	m := *res.Meta
	m.Unreadable = []live.Unreadable{
		{Path: live.HostFiles, Error: why},
		{Path: "sys/class/net/eth0/carrier", Error: "invalid argument"},
	}
	live.Annotate(s, &m)
	for _, name := range []string{"proc_interrupts", "proc_meminfo", "limits", "thp", "proc_irq"} {
		want := []facts.Source{{Name: name, Origin: live.HostFiles, Status: facts.StatusTimeout, Error: why}}
		if diff := cmp.Diff(want, sourcesOf(s, name)); diff != "" {
			t.Errorf("%s sources (-want +got):\n%s", name, diff)
		}
	}
	for _, src := range sourcesOf(s, "sysfs_net") {
		if src.Status != facts.StatusMissing {
			t.Errorf("sysfs_net source %+v: an EINVAL is not a gap", src)
		}
	}
}
