package xzutils

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// stubXZ writes an executable named xz into a new folder that, run, does script (sh) and
// returns its path.
func stubXZ(t *testing.T, script string) string {
	t.Helper()
	tool := filepath.Join(t.TempDir(), "xz")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return tool
}

// TestStart: xz is run with the arguments and memory limit of a decoding, reads a file handed
// to it from that file's offset and any other reader through a pipe, and its output arrives
// through Output, whole, followed by EOF once it exits.
func TestStart(t *testing.T) {
	tool := stubXZ(t, `echo "$@"; cat`)
	file := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(file, []byte("skipped|from the file"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(int64(len("skipped|")), io.SeekStart); err != nil {
		t.Fatal(err)
	}
	const args = "--decompress --stdout --memlimit-decompress=256MiB\n"
	for _, tc := range []struct {
		name string
		in   io.Reader
		want string
	}{
		{"file", f, args + "from the file"},
		{"reader", strings.NewReader(strings.Repeat("x", 3<<20)), args + strings.Repeat("x", 3<<20)},
	} {
		p, err := Start(tool, tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, err := io.ReadAll(p.Output())
		if err != nil {
			t.Errorf("%s: read: %v", tc.name, err)
		}
		if string(got) != tc.want {
			t.Errorf("%s: xz wrote %d bytes %.80q, want %d bytes %.80q", tc.name, len(got), got, len(tc.want), tc.want)
		}
		if err := p.Finish(false); err != nil {
			t.Errorf("%s: Finish: %v", tc.name, err)
		}
		assertReaped(t, p.Pid())
	}
}

// TestFinish: what Finish says of xz's end: its complaint on standard error when it failed or
// was killed, how it ended when it said nothing, nothing when it succeeded or was killed
// without a word.
func TestFinish(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		kill         bool
		want         string
	}{
		{"success", "cat >/dev/null", false, ""},
		{"complaint", "echo 'xz: (stdin): Unexpected end of input' >&2; exit 1", false, "xz: (stdin): Unexpected end of input"},
		{"silent failure", "exit 3", false, "exit status 3"},
		{"killed", "exec sleep 30", true, ""},
		{"killed after a complaint", "echo 'xz: (stdin): Compressed data is corrupt' >&2; exec sleep 30 >&-", true, "xz: (stdin): Compressed data is corrupt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Start(stubXZ(t, tc.script), strings.NewReader("input"))
			if err != nil {
				t.Fatal(err)
			}
			if tc.kill && tc.want != "" {
				// Let it complain before it is killed: it closes its output then.
				if _, err := p.Output().Read(make([]byte, 1)); err != io.EOF {
					t.Fatalf("read before the kill: %v, want EOF", err)
				}
			}
			err = p.Finish(tc.kill)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("Finish(%v) = %q, want %q", tc.kill, got, tc.want)
			}
			assertReaped(t, p.Pid())
			if _, err := p.Output().Read(make([]byte, 1)); err == nil {
				t.Error("Output still open after Finish")
			}
		})
	}
}

// TestStartFails: a tool that cannot be run is an error naming it, and leaves no pipe open.
func TestStartFails(t *testing.T) {
	tool := filepath.Join(t.TempDir(), "xz")
	if err := os.WriteFile(tool, []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := openFiles(t)
	_, err := Start(tool, strings.NewReader(""))
	if err == nil || !strings.HasPrefix(err.Error(), "run "+tool+": fork/exec "+tool+": ") {
		t.Errorf("Start = %v, want run %s: fork/exec ...", err, tool)
	}
	if after := openFiles(t); after != before {
		t.Errorf("%d files open after the failed Start, %d before", after, before)
	}
}

// openFiles counts this process's open file descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(fds)
}

// assertReaped fails unless process pid is gone: neither running nor a zombie.
func assertReaped(t *testing.T, pid int) {
	t.Helper()
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err == nil {
		t.Errorf("xz (pid %d) still there after Finish: %s", pid, bytes.TrimSpace(stat))
	}
}
