package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/live/livetest"
)

// runCLI runs rdmadoctor in-process and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"rdmadoctor"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// diagnoses returns the diagnoses of a JSON report, without what names the input.
func diagnoses(t *testing.T, report string) []any {
	t.Helper()
	var r struct {
		Diagnoses []any `json:"diagnoses"`
	}
	if err := json.Unmarshal([]byte(report), &r); err != nil {
		t.Fatalf("report: %v\n%s", err, report)
	}
	return r.Diagnoses
}

// TestGatherRoundTrip: a snapshot written by gather diagnoses like the live run on the same node.
func TestGatherRoundTrip(t *testing.T) {
	e := livetest.New(t, "root-h100.txtar", livetest.Stubs())
	t.Setenv(live.ToolPathEnv, e.Bin)
	archive := filepath.Join(t.TempDir(), "node01.tar.gz")
	if code, _, stderr := runCLI(t, "gather", "-q", "--root", e.Root, "-o", archive); code != 0 {
		t.Fatalf("gather: exit %d\n%s", code, stderr)
	}
	liveCode, liveOut, liveErr := runCLI(t, "diagnose", "--root", e.Root, "--format", "json", "--fail-on", "none")
	snapCode, snapOut, snapErr := runCLI(t, "diagnose", "--snapshot", archive, "--format", "json", "--fail-on", "none")
	if liveCode != 0 || snapCode != 0 {
		t.Fatalf("diagnose exit codes: live %d (%s), snapshot %d (%s)", liveCode, liveErr, snapCode, snapErr)
	}
	live, snap := diagnoses(t, liveOut), diagnoses(t, snapOut)
	if len(live) == 0 {
		t.Error("the live run found nothing on the fake node")
	}
	if diff := cmp.Diff(live, snap); diff != "" {
		t.Errorf("diagnoses differ (-live +snapshot):\n%s", diff)
	}
}

// TestGatherRedactDir: gather --redact writes a directory without the node's identifiers.
func TestGatherRedactDir(t *testing.T) {
	e := livetest.New(t, "root-h100.txtar", livetest.Stubs())
	t.Setenv(live.ToolPathEnv, e.Bin)
	dir := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := runCLI(t, "gather", "-q", "--redact", "--root", e.Root, "-o", dir); code != 0 {
		t.Fatalf("gather: exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "sys/class/net/ib0/address"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "08:c0:eb:03:00:ea:50:e6") {
		t.Errorf("ib0 address not redacted: %s", b)
	}
	if code, _, stderr := runCLI(t, "gather", "-q", "--root", e.Root, "-o", dir); code != exitUsage || !strings.Contains(stderr, "not empty") {
		t.Errorf("gather into a non-empty directory: exit %d, %q", code, stderr)
	}
}

// realTools are the packages the real-tools test needs (Debian names); .ci installs them.
var realTools = map[string]string{
	"ibstat": "infiniband-diags", "ibv_devinfo": "ibverbs-utils", "mstflint": "mstflint",
	"lspci": "pciutils", "ethtool": "ethtool",
}

// TestRealToolsNoRDMA runs the real gather and diagnose on this machine, which has no RDMA
// hardware: both end with exit code 3 and every source that could not be read says why.
func TestRealToolsNoRDMA(t *testing.T) {
	for tool, pkg := range realTools {
		if _, err := exec.LookPath(tool); err != nil {
			if _, err2 := os.Stat("/usr/sbin/" + tool); err2 == nil {
				continue
			}
			if os.Getenv("RDMADOCTOR_REQUIRE_TOOLS") == "1" {
				t.Fatalf("%s not installed (package %s) and RDMADOCTOR_REQUIRE_TOOLS=1", tool, pkg)
			}
			t.Skipf("%s not installed (package %s)", tool, pkg)
		}
	}
	if _, err := os.Stat("/sys/class/infiniband"); err == nil {
		t.Skip("this machine has RDMA devices")
	}
	t.Setenv(live.ToolPathEnv, "")
	out := filepath.Join(t.TempDir(), "node.tar.gz")
	code, _, stderr := runCLI(t, "gather", "-q", "-o", out)
	if code != exitNoFacts || !strings.Contains(stderr, "no RDMA devices in /sys/class/infiniband") {
		t.Errorf("gather: exit %d, stderr %q; want 3 and no RDMA devices", code, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("gather wrote no snapshot: %v", err)
	}
	code, stdout, stderr := runCLI(t, "diagnose")
	if code != exitNoFacts {
		t.Errorf("diagnose: exit %d, want 3\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "facts")
	if code != 0 {
		t.Fatalf("facts: exit %d: %s", code, stderr)
	}
	var s facts.Snapshot
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatal(err)
	}
	if s.Source.Kind != "live" {
		t.Errorf("source kind %q, want live", s.Source.Kind)
	}
	for _, src := range s.Sources {
		if src.Status != facts.StatusOK && (src.Error == "" || strings.HasPrefix(src.Error, "not in snapshot")) {
			t.Errorf("source %s (%s) not explained: %q", src.Name, src.Status, src.Error)
		}
	}
}
