package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdmadoctor/rdmadoctor/internal/xzahead"
)

// TestEarlyDecoderFlags holds internal/xzahead's reading of the command line to diagnose's and
// facts' flags: each is skipped over as urfave/cli parses it (a boolean alone, any other flag
// with the word after it), so that --snapshot is found beside any of them.
func TestEarlyDecoderFlags(t *testing.T) {
	for _, cmd := range []*cli.Command{diagnoseCommand(), factsCommand()} {
		for _, f := range cmd.Flags {
			takesValue := f.(cli.DocGenerationFlag).TakesValue()
			for _, name := range f.Names() {
				if name == "snapshot" {
					continue
				}
				flag := "-" + name
				if len(name) > 1 {
					flag = "--" + name
				}
				args := []string{"rdmadoctor", cmd.Name, flag}
				if takesValue {
					if _, ok := xzahead.SnapshotArg(append(args, "--snapshot", "sos.tar.xz")); ok {
						t.Errorf("%s %s: its value taken for a flag", cmd.Name, flag)
					}
					args = append(args, "10s")
				}
				if got, ok := xzahead.SnapshotArg(append(args, "--snapshot", "sos.tar.xz")); !ok || got != "sos.tar.xz" {
					t.Errorf("%q: --snapshot not found (%q, %v)", append(args, "--snapshot", "sos.tar.xz"), got, ok)
				}
			}
		}
	}
}

// TestEarlyDecoderStopped: a run that does not read the --snapshot archive it was started for
// (a usage error found before the reading) leaves no xz behind: main kills and reaps it. xz is
// a stub on PATH that records its pid and sleeps.
func TestEarlyDecoderStopped(t *testing.T) {
	rdmadoctor, err := exec.LookPath("rdmadoctor") // this binary (TestMain)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "xz.pid")
	stub := "#!/bin/sh\necho $$ >" + pidFile + "\nexec sleep 30\n"
	if err := os.WriteFile(filepath.Join(dir, "xz"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	snapshot := filepath.Join(dir, "sos.tar.xz")
	if err := os.WriteFile(snapshot, []byte("\xfd7zXZ\x00 the rest"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"diagnose", "--snapshot", snapshot, "--format", "bogus"},
		{"diagnose", "--snapshot", snapshot, "--input", filepath.Join(dir, "ibstat.txt")},
		{"diagnose", "--output", filepath.Join(dir, "missing", "report.json"), "--snapshot", snapshot},
		{"diagnose", "--snapshot", snapshot, "--profile", filepath.Join(dir, "missing.yaml")},
		{"diagnose", "--snapshot", snapshot, "--root", dir},
		{"facts", "--snapshot", snapshot, "--format", "table"},
	} {
		// The stub may be killed before it writes its pid: then the run is tried again.
		var pid int
		for try := 0; try < 5 && pid == 0; try++ {
			os.Remove(pidFile)
			cmd := exec.Command(rdmadoctor, args...)
			cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
			out, err := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); code != exitUsage {
				t.Fatalf("%q: exit %d (%v), want %d: %s", args, code, err, exitUsage, out)
			}
			pid = waitPid(pidFile)
		}
		if pid == 0 {
			t.Fatalf("%q: xz never ran: the early decoder was not started", args)
		}
		if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			t.Errorf("%q: xz (pid %d) outlived the run: %s", args, pid, stat)
			killPid(pid)
		}
	}
}

// waitPid returns the pid in file, once the stub wrote it (0 after half a second).
func waitPid(file string) int {
	for range 50 {
		var pid int
		if b, err := os.ReadFile(file); err == nil && len(b) > 0 && b[len(b)-1] == '\n' {
			fmt.Sscan(string(b), &pid)
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0
}

// killPid kills the stray process pid, so that a failing test leaves none behind.
func killPid(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
