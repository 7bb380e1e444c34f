package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/live/livetest"
)

// hungStubs are the default stubs, every one hanging until it is killed.
func hungStubs() map[string]livetest.Stub {
	s := livetest.Stubs()
	for k, st := range s {
		st.Hang = true
		s[k] = st
	}
	return s
}

// TestDiagnoseLiveTimedOut: a live run whose commands all time out (a node without an RDMA
// device in sysfs, where only the tools could say more) is not unreadable input: every run exits
// 3, rewrites the Prometheus file (an older file said complete 1) with rdmadoctor_complete 0 and
// the timed-out commands, and says on stderr that commands timed out, naming --timeout; it never
// says the node has no RDMA device. The JSON report lists the timed-out inputs.
func TestDiagnoseLiveTimedOut(t *testing.T) {
	e := livetest.New(t, "", hungStubs())
	t.Setenv(live.ToolPathEnv, e.Bin)
	if err := os.MkdirAll(filepath.Join(e.Root, "sys/class/net/eth0"), 0o755); err != nil {
		t.Fatal(err)
	}
	prom := filepath.Join(t.TempDir(), "node.prom")
	for i := 0; i < 3; i++ {
		if err := os.WriteFile(prom, []byte("rdmadoctor_complete 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCLI(t, "diagnose", "--root", e.Root, "--timeout", "300ms", "--format", "prometheus", "-o", prom)
		if code != exitNoFacts {
			t.Fatalf("run %d: exit %d, want %d\n%s", i, code, exitNoFacts, stderr)
		}
		for _, want := range []string{"commands timed out on " + e.Root + " (ibstat", "ibstat", "--timeout 300ms"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("run %d: stderr lacks %q:\n%s", i, want, stderr)
			}
		}
		if strings.Contains(stderr, "no RDMA device") {
			t.Errorf("run %d: claims no RDMA device while the tools timed out:\n%s", i, stderr)
		}
		b, err := os.ReadFile(prom)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"\nrdmadoctor_complete 0\n", `rdmadoctor_input_incomplete{input="ibstat",origin="ibstat",status="timeout"} 1`} {
			if !strings.Contains(string(b), want) {
				t.Errorf("run %d: %s lacks %q:\n%s", i, prom, want, b)
			}
		}
	}
	code, out, stderr := runCLI(t, "diagnose", "--root", e.Root, "--timeout", "300ms", "--format", "json")
	if code != exitNoFacts {
		t.Fatalf("json: exit %d, want %d\n%s", code, exitNoFacts, stderr)
	}
	var r struct {
		Complete bool           `json:"complete"`
		Sources  []facts.Source `json:"sources"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("json report: %v\n%s", err, out)
	}
	timedOut := map[string]bool{}
	for _, s := range r.Sources {
		if s.Status == facts.StatusTimeout {
			timedOut[s.Name] = true
		}
	}
	if r.Complete || !timedOut["ibstat"] || !timedOut["lspci"] {
		t.Errorf("json: complete %v, timed out %v; want incomplete with ibstat and lspci timed out", r.Complete, timedOut)
	}
}

// TestDiagnoseRootSpecialFiles: a FIFO and a link leaving --root, where host files are read, are
// named (not "not present on this node") and make the live report and that of its gathered
// snapshot incomplete: --fail-on-incomplete exits 1 for both.
func TestDiagnoseRootSpecialFiles(t *testing.T) {
	e := livetest.New(t, "root-h100.txtar", livetest.Stubs())
	t.Setenv(live.ToolPathEnv, e.Bin)
	for _, rel := range []string{"proc/interrupts", "proc/meminfo"} {
		if err := os.Remove(filepath.Join(e.Root, rel)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(e.Root, "proc/interrupts"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(e.Root, "proc/meminfo")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "snap")
	if code, _, stderr := runCLI(t, "gather", "-q", "--root", e.Root, "-o", out, "--timeout", "20s"); code != 0 {
		t.Fatalf("gather: exit %d\n%s", code, stderr)
	}
	for _, args := range [][]string{{"--root", e.Root}, {"--snapshot", out}} {
		code, report, stderr := runCLI(t, append([]string{"diagnose", "--format", "json", "--fail-on", "none", "--fail-on-incomplete"}, args...)...)
		if code != exitFindings {
			t.Errorf("%v: exit %d, want %d\n%s", args, code, exitFindings, stderr)
		}
		for _, want := range []string{`"not a regular file (FIFO)"`, `"not followed: a symbolic link to /etc/passwd, which leaves the root `} {
			if !strings.Contains(report, want) {
				t.Errorf("%v: report lacks %s", args, want)
			}
		}
		if strings.Contains(report, "not present on this node: "+filepath.Join(e.Root, "proc/interrupts")) {
			t.Errorf("%v: the FIFO is called absent", args)
		}
	}
}

// TestNoRDMAWhy: only a tool that lists RDMA devices refusing is evidence of none (ethtool -a
// refusing on a NIC without pause frames is not), and never while such a tool timed out.
func TestNoRDMAWhy(t *testing.T) {
	src := func(name, status string) facts.Source { return facts.Source{Name: name, Origin: name, Status: status} }
	for _, tc := range []struct {
		sources []facts.Source
		want    string
	}{
		{[]facts.Source{src("ethtool_pause", facts.StatusUnsupported)}, "holds no RDMA device or RDMA tool output this version reads"},
		{[]facts.Source{src("ethtool_pause", facts.StatusUnsupported), src("ibstat", facts.StatusUnsupported)}, "has no RDMA device: ibstat says so"},
		{[]facts.Source{src("ibv_devinfo", facts.StatusUnsupported), src("ibstat", facts.StatusTimeout), src("lspci", facts.StatusTimeout)},
			"cannot tell whether it has an RDMA device: ibstat, lspci timed out"},
	} {
		if got := noRDMAWhy(&facts.Snapshot{Sources: tc.sources}); got != tc.want {
			t.Errorf("noRDMAWhy(%v) = %q, want %q", tc.sources, got, tc.want)
		}
	}
}
