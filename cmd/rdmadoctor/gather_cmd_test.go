package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
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

// TestGatherRedactNames: with --redact the host name (the stub hostname of the fake node
// prints "vm", fixtures/live/hostname-build-vm.txt) is replaced (by its host-N placeholder) in the archive's top folder,
// named after the output file, and in the command line rdmadoctor.yaml records.
func TestGatherRedactNames(t *testing.T) {
	e := livetest.New(t, "root-h100.txtar", livetest.Stubs())
	t.Setenv(live.ToolPathEnv, e.Bin)
	out := filepath.Join(t.TempDir(), "vm.tar.gz")
	if code, _, stderr := runCLI(t, "gather", "-q", "--redact", "--root", e.Root, "-o", out); code != 0 {
		t.Fatalf("gather: exit %d\n%s", code, stderr)
	}
	members := tarMembers(t, out)
	var top string
	for name := range members {
		if strings.HasSuffix(name, "/"+live.MetaFile) {
			top = strings.TrimSuffix(name, "/"+live.MetaFile)
		}
	}
	if !regexp.MustCompile(`^host-[0-9]+$`).MatchString(top) {
		t.Fatalf("top folder %q, want a host-N placeholder; members: %v", top, slices.Sorted(maps.Keys(members)))
	}
	for name := range members {
		if !strings.HasPrefix(name, top+"/") {
			t.Errorf("member %s is not under the redacted top folder %s/", name, top)
		}
	}
	meta := members[top+"/"+live.MetaFile]
	if strings.Contains(meta, "vm.tar.gz") || !strings.Contains(meta, top+".tar.gz") {
		t.Errorf("recorded argv names the host, or not its placeholder %s:\n%s", top, meta)
	}

	// Without --redact the top folder is the file's name, as given.
	plain := filepath.Join(t.TempDir(), "vm.tar.gz")
	if code, _, stderr := runCLI(t, "gather", "-q", "--root", e.Root, "-o", plain); code != 0 {
		t.Fatalf("gather: exit %d\n%s", code, stderr)
	}
	if _, ok := tarMembers(t, plain)["vm/"+live.MetaFile]; !ok {
		t.Errorf("no vm/%s in the archive written without --redact", live.MetaFile)
	}
}

// tarMembers reads a .tar.gz into member name -> content (directories with "").
func tarMembers(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	out := map[string]string{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = string(b)
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
