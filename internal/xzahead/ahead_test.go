package xzahead

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rdmadoctor/rdmadoctor/internal/xzutils"
)

// TestMain puts a stub xz first on PATH (before xzutils.Tool reads it): with XZAHEAD_STUB=cat
// it prints its arguments and copies its input, else it sleeps.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "xzahead")
	if err != nil {
		panic(err)
	}
	stub := "#!/bin/sh\nif [ \"$XZAHEAD_STUB\" = cat ]; then echo \"$@\"; exec cat; fi\nexec sleep 30\n"
	if err := os.WriteFile(filepath.Join(dir, "xz"), []byte(stub), 0o755); err != nil {
		panic(err)
	}
	os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// archive writes an .xz-looking file (the magic, then text) and returns its path.
func archive(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, append(append([]byte{}, xzMagic...), "the rest of "+name...), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func stat(t *testing.T, path string) os.FileInfo {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestTake: the decoder started for an archive is handed, once, to the reader of that same
// file (another path to it too), never to one of another file; it is xz-utils run as the
// archive reader runs it, reading the whole file from its start.
func TestTake(t *testing.T) {
	t.Setenv("XZAHEAD_STUB", "cat")
	path, other := archive(t, "sos.tar.xz"), archive(t, "other.tar.xz")
	link := filepath.Join(t.TempDir(), "link.tar.xz")
	if err := os.Link(path, link); err != nil {
		t.Fatal(err)
	}
	Start(path)
	defer Stop()
	if p := Take(stat(t, other)); p != nil {
		t.Fatal("took the decoder of sos.tar.xz for other.tar.xz")
	}
	p := Take(stat(t, link))
	if p == nil {
		t.Fatal("no decoder for sos.tar.xz")
	}
	// Made way for: this thread runs YieldNice nicer than the decoder (raw getpriority: 20 - nice).
	decoder, derr := syscall.Getpriority(syscall.PRIO_PROCESS, p.Pid())
	self, serr := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	if derr != nil || serr != nil {
		t.Fatal(derr, serr)
	}
	if want := min(20-decoder+xzutils.YieldNice, 19); 20-self != want {
		t.Errorf("this thread runs at nice %d beside the decoder's %d, want %d", 20-self, 20-decoder, want)
	}
	got, err := io.ReadAll(p.Output())
	if err != nil {
		t.Fatal(err)
	}
	if want := "--decompress --stdout --memlimit-decompress=" + xzutils.MemLimit + "\n" + string(xzMagic) + "the rest of sos.tar.xz"; string(got) != want {
		t.Errorf("decoder wrote %q, want %q", got, want)
	}
	if err := p.Finish(false); err != nil {
		t.Errorf("Finish: %v", err)
	}
	if Take(stat(t, path)) != nil {
		t.Error("the decoder was taken twice")
	}
}

// TestStartNothing: no decoder is started for what is not a regular file starting with the
// xz magic, and a FIFO is not waited on.
func TestStartNothing(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo.tar.xz")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{
		filepath.Join(dir, "missing.tar.xz"),
		dir,
		fifo,
		write("empty.tar.xz", ""),
		write("short.tar.xz", string(xzMagic[:5])),
		write("sos.tar.gz", "\x1f\x8b\x08\x00\x00\x00"),
		write("sos.tar", "sosreport-node01/sos_commands/"),
	} {
		done := make(chan bool)
		go func() {
			Start(path)
			done <- true
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("Start(%s) still waiting", path)
		}
		ahead.Lock()
		started := ahead.p != nil
		ahead.Unlock()
		if started {
			Stop()
			t.Errorf("decoder started for %s", filepath.Base(path))
		}
	}
}

// TestStop: a decoder nobody took is killed and reaped (no zombie), and cannot be taken after.
func TestStop(t *testing.T) {
	path := archive(t, "sos.tar.xz")
	Start(path)
	ahead.Lock()
	p := ahead.p
	ahead.Unlock()
	if p == nil {
		t.Fatal("no decoder started")
	}
	done := make(chan bool)
	go func() {
		Stop()
		done <- true
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Stop did not return: xz was not killed")
	}
	if proc, err := os.ReadFile("/proc/" + strconv.Itoa(p.Pid()) + "/stat"); err == nil {
		t.Errorf("xz still there after Stop: %s", proc)
	}
	if Take(stat(t, path)) != nil {
		t.Error("a stopped decoder was taken")
	}
	Stop() // again: nothing to do
}

// TestImportsInitialisedFirst: the package imports nothing that the runtime initialises late
// (xzutils' package doc): a dependency on os/exec, path/filepath or strings, or on a package
// outside the standard library but xzutils, would have its init, and xz, wait for most of the
// program's packages.
func TestImportsInitialisedFirst(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{else}}std:{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch dep {
		case "std:os/exec", "std:path/filepath", "std:strings":
			t.Errorf("imports %s", strings.TrimPrefix(dep, "std:"))
		case "github.com/rdmadoctor/rdmadoctor/internal/xzahead", "github.com/rdmadoctor/rdmadoctor/internal/xzutils":
		default:
			if !strings.HasPrefix(dep, "std:") {
				t.Errorf("imports %s, outside the standard library", dep)
			}
		}
	}
}
