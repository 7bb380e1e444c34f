package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// diagnoseDir runs `rdmadoctor diagnose --snapshot dir args...` and returns its exit code,
// stdout and stderr.
func diagnoseDir(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	argv := append([]string{"rdmadoctor", "diagnose", "--snapshot", dir}, args...)
	code := run(argv, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// A bad line of megabytes is quoted in its warning only in part (issue 10: a 33.5 MB warning).
func TestWarningClipped(t *testing.T) {
	dir := t.TempDir()
	ibstat := "CA 'mlx5_0'\n\tCA type: MT4115\n\tNumber of ports: 1\n\tPort 1:\n\t\tState: Active\n\t\tBase lid: " +
		strings.Repeat("9x", 1<<20) + "\n"
	if err := os.MkdirAll(filepath.Join(dir, "sos_commands/infiniband"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sos_commands/infiniband/ibstat"), []byte(ibstat), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stdout, stderr := diagnoseDir(t, dir, "--format", "json")
	if !strings.Contains(stderr, "rdmadoctor: warning: sos_commands/infiniband/ibstat") {
		t.Fatalf("no warning about the bad line:\n%.2000s", stderr)
	}
	for _, l := range strings.Split(stderr, "\n") {
		if len(l) > facts.MaxMessageBytes+200 {
			t.Errorf("stderr line of %d bytes: %.200s...", len(l), l)
		}
	}
	if len(stdout) > 1<<20 {
		t.Errorf("report of %d bytes: the bad line is quoted whole", len(stdout))
	}
}
