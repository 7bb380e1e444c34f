package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRealSosreportNoRDMA runs Debian's `sos report` on this machine, which has no RDMA
// hardware, and diagnoses the archive: it exits 3 saying nothing about RDMA could be
// evaluated, as diagnose live and a gather of the machine do (TestRealToolsNoRDMA), never
// "No problem found". Skipped without sos or root, unless RDMADOCTOR_REQUIRE_TOOLS=1.
func TestRealSosreportNoRDMA(t *testing.T) {
	skip := ""
	if _, err := exec.LookPath("sos"); err != nil {
		skip = "sos is not installed"
	} else if os.Geteuid() != 0 {
		skip = "sos report needs root"
	}
	if skip != "" {
		if os.Getenv("RDMADOCTOR_REQUIRE_TOOLS") == "1" {
			t.Fatalf("RDMADOCTOR_REQUIRE_TOOLS=1 but %s", skip)
		}
		t.Skip(skip)
	}
	if _, err := os.Stat("/sys/class/infiniband"); err == nil {
		t.Skip("this machine has RDMA devices")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "sos", "report", "--batch", "--tmp-dir", dir,
		"-o", "infiniband,networking,pci,kernel", "--label", "test").CombinedOutput()
	if err != nil {
		t.Fatalf("sos report: %v\n%s", err, out)
	}
	var archive string
	found, _ := filepath.Glob(filepath.Join(dir, "sosreport-*.tar.*"))
	for _, f := range found {
		if !strings.HasSuffix(f, ".md5") && !strings.HasSuffix(f, ".sha256") {
			archive = f
		}
	}
	if archive == "" {
		t.Fatalf("sos report wrote no archive in %s:\n%s", dir, out)
	}
	code, stdout, stderr := runCLI(t, "diagnose", "--snapshot", archive)
	if code != exitNoFacts || !strings.Contains(stderr, "nothing about RDMA could be evaluated") {
		t.Errorf("diagnose of %s: exit %d, want 3 and nothing about RDMA\nstdout:\n%s\nstderr:\n%s", archive, code, stdout, stderr)
	}
}
