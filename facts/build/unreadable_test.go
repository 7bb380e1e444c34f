package build

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// denyFS is fsys but for the file deny, whose opening fails with fs.ErrPermission, as a chmod
// 000 file does for a user who is not root (the tests run as root, who reads it).
type denyFS struct {
	fs.FS
	deny string
}

func (d denyFS) Open(name string) (fs.File, error) {
	if name == d.deny {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.FS.Open(name)
}

// sourceAt returns the source whose Origin is origin.
func sourceAt(t *testing.T, s *facts.Snapshot, origin string) facts.Source {
	t.Helper()
	for _, src := range s.Sources {
		if src.Origin == origin {
			return src
		}
	}
	t.Fatalf("no source for %s: %+v", origin, s.Sources)
	return facts.Source{}
}

// wantUnread checks that origin is recorded as name's error with reason why, never missing,
// and that it makes the report incomplete.
func wantUnread(t *testing.T, s *facts.Snapshot, origin, name, why string) {
	t.Helper()
	src := sourceAt(t, s, origin)
	if src.Name != name || src.Status != facts.StatusError || src.Error != why || !src.Incomplete() {
		t.Errorf("%s: %+v, want %s error %q, incomplete", origin, src, name, why)
	}
	for _, src := range s.Sources {
		if src.Name == name && src.Status == facts.StatusMissing {
			t.Errorf("%s is also missing: %+v", name, src)
		}
	}
}

func TestUnreadableFileIsAnError(t *testing.T) {
	captures := fstest.MapFS{
		"ibstat":    {Data: []byte("CA 'mlx5_0'\n")},
		"capture-1": {Data: []byte("CA 'mlx5_0'\n")},
	}
	for _, tc := range []struct{ deny, name string }{
		{"ibstat", "ibstat"},        // named like an input
		{"capture-1", "unreadable"}, // its content would have said which
	} {
		t.Run(tc.deny, func(t *testing.T) {
			s, err := Snapshot(denyFS{captures, tc.deny}, facts.SourceInfo{Kind: "captures"})
			if err != nil {
				t.Fatal(err)
			}
			wantUnread(t, s, tc.deny, tc.name, "unreadable: permission denied")
		})
	}
	t.Run("sosreport", func(t *testing.T) {
		sos := fstest.MapFS{"sos_commands/infiniband/ibstat": {Data: []byte("CA 'mlx5_0'\n")}}
		s, err := Snapshot(denyFS{sos, "sos_commands/infiniband/ibstat"}, facts.SourceInfo{Kind: "sosreport"})
		if err != nil {
			t.Fatal(err)
		}
		wantUnread(t, s, "sos_commands/infiniband/ibstat", "ibstat", "unreadable: permission denied")
	})
}

func TestFIFOIsAnErrorNeverOpened(t *testing.T) {
	// MapFS opens a FIFO like a file: an Open would read it as an empty ibv_devinfo.
	pipes := fstest.MapFS{
		"ibv_devinfo": {Mode: fs.ModeNamedPipe},
		"pipe":        {Mode: fs.ModeNamedPipe},
	}
	s, err := Snapshot(pipes, facts.SourceInfo{Kind: "captures"})
	if err != nil {
		t.Fatal(err)
	}
	wantUnread(t, s, "ibv_devinfo", "ibv_devinfo", "not a regular file (FIFO)")
	wantUnread(t, s, "pipe", "unreadable", "not a regular file (FIFO)")
}

// TestRealFIFO reads a folder holding a FIFO nobody writes to: opening it would block forever.
func TestRealFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "ibstat"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan *facts.Snapshot)
	go func() {
		fsys, info, err := source.Open(dir)
		if err != nil {
			t.Error(err)
			close(done)
			return
		}
		s, err := Snapshot(fsys, info)
		if err != nil {
			t.Error(err)
		}
		done <- s
	}()
	select {
	case s := <-done:
		if s != nil {
			wantUnread(t, s, "ibstat", "ibstat", "not a regular file (FIFO)")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("reading a folder holding a FIFO blocked")
	}
}

// TestRealChmod000 needs a user who is not root: root reads a chmod 000 file (denyFS stands in
// for it in TestUnreadableFileIsAnError).
func TestRealChmod000(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, who reads a chmod 000 file: TestUnreadableFileIsAnError simulates it")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "ibstat")
	if err := os.WriteFile(p, []byte("CA 'mlx5_0'\n"), 0o000); err != nil {
		t.Fatal(err)
	}
	fsys, info, err := source.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Snapshot(fsys, info)
	if err != nil {
		t.Fatal(err)
	}
	wantUnread(t, s, "ibstat", "ibstat", "unreadable: permission denied")
}
