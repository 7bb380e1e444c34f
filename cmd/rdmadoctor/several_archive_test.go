package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// TestArchiveOfSeveralSnapshots: an archive holding a sosreport folder and a second top folder
// of captures is refused as the same two folders given as a directory are (exit 2, naming the
// archive and both entries), in every format, never read as the sosreport alone.
func TestArchiveOfSeveralSnapshots(t *testing.T) {
	dir := t.TempDir()
	top := filepath.Join(dir, "two")
	ibstat := fixtures.Read(t, "ibstat/cx4-back-to-back-no-sm.txt")
	for name, body := range map[string][]byte{
		"sosreport-host-2026/sos_commands/infiniband/ibstat": ibstat,
		"sosreport-host-2026/hostname":                       []byte("host\n"),
		"extra/ibstat":                                       ibstat,
	} {
		p := filepath.Join(top, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := runCLI(t, "diagnose", "--snapshot", top)
	if code != exitUsage || !strings.Contains(stderr, "a folder of 2 snapshots") {
		t.Fatalf("the folder: exit %d, want 2 and a folder of 2 snapshots\n%s", code, stderr)
	}
	for _, flag := range []string{"-cf", "-czf", "-cJf", "-cjf"} {
		archive := filepath.Join(dir, "two"+flag+".tar")
		if out, err := exec.Command("tar", "-C", top, flag, archive, "sosreport-host-2026", "extra").CombinedOutput(); err != nil {
			t.Logf("tar %s: %v %s", flag, err, out) // xz or bzip2 missing
			continue
		}
		code, stdout, stderr := runCLI(t, "diagnose", "--snapshot", archive)
		if code != exitUsage || !strings.Contains(stderr, archive+" is an archive of 2 snapshots") ||
			!strings.Contains(stderr, "extra (ibstat)") || !strings.Contains(stderr, "sosreport-host-2026 (sos_commands/)") {
			t.Errorf("tar %s: exit %d, want 2 naming the archive and both folders\nstdout:\n%s\nstderr:\n%s", flag, code, stdout, stderr)
		}
	}
}
