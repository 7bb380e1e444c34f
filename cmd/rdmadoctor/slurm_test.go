package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/live/livetest"
	"github.com/rdmadoctor/rdmadoctor/internal/golden"
)

// slurmNode is the Slurm node name the test cluster gives this host (slurmd -N).
const slurmNode = "rdnode"

// slurmCluster is a one-node Slurm cluster on 127.0.0.1 (Debian's slurm-wlm and munge):
// munged on a socket of its own, slurmctld and slurmd on free ports, all state in a temporary
// folder, no cgroups (proctrack/linuxproc, task/none). Env is what a Slurm client command
// (sinfo, scontrol) needs to reach it.
type slurmCluster struct {
	dir string
	env []string
}

// startSlurm starts the cluster in dir (slurm.conf, state, logs) with healthCheck as slurmd's HealthCheckProgram and waits until
// slurmctld answers for the node; the daemons are stopped when the test ends.
func startSlurm(t *testing.T, dir, healthCheck string) *slurmCluster {
	t.Helper()
	munged := realTool(t, "munged", "munge")
	slurmctld := realTool(t, "slurmctld", "slurm-wlm")
	slurmd := realTool(t, "slurmd", "slurm-wlm")
	realTool(t, "sinfo", "slurm-client")
	realTool(t, "scontrol", "slurm-client")
	if os.Geteuid() != 0 {
		if os.Getenv("RDMADOCTOR_REQUIRE_TOOLS") == "1" {
			t.Fatal("slurmd runs as root (SlurmdUser=root) and RDMADOCTOR_REQUIRE_TOOLS=1, but this test is not root")
		}
		t.Skip("slurmd runs as root (SlurmdUser=root)")
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	for _, d := range []string{"munge", "state", "spool"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	key := bytes.Repeat([]byte("rdmadoctor test munge key, not a secret. "), 32)
	if err := os.WriteFile(filepath.Join(dir, "munge", "munge.key"), key, 0o600); err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(dir, "munge", "munge.socket")
	conf := filepath.Join(dir, "slurm.conf")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf(`ClusterName=rdmadoctor
SlurmctldHost=%[1]s(127.0.0.1)
SlurmctldPort=%[2]s
SlurmdPort=%[3]s
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=%[4]s
CredType=cred/munge
StateSaveLocation=%[5]s/state
SlurmdSpoolDir=%[5]s/spool
SlurmctldPidFile=%[5]s/slurmctld.pid
SlurmdPidFile=%[5]s/slurmd.pid
SlurmctldLogFile=%[5]s/slurmctld.log
SlurmdLogFile=%[5]s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
HealthCheckProgram=%[6]s
HealthCheckInterval=3600
NodeName=%[7]s NodeHostname=%[1]s NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN
PartitionName=debug Nodes=%[7]s Default=YES State=UP
`, host, freePort(t), freePort(t), socket, dir, healthCheck, slurmNode)), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &slurmCluster{dir: dir, env: append(os.Environ(), "SLURM_CONF="+conf)}
	c.daemon(t, munged, "-F", "-f", "--socket="+socket, "--key-file="+filepath.Join(dir, "munge", "munge.key"),
		"--log-file="+filepath.Join(dir, "munge", "munged.log"), "--pid-file="+filepath.Join(dir, "munge", "munged.pid"),
		"--seed-file="+filepath.Join(dir, "munge", "munged.seed"))
	c.waitFor(t, "munged's socket", func() (bool, string) { _, err := os.Stat(socket); return err == nil, fmt.Sprint(err) })
	c.daemon(t, slurmctld, "-D", "-i", "-f", conf)
	c.waitFor(t, "slurmctld to answer", func() (bool, string) {
		out, err := c.run(t, "sinfo", "-h", "-n", slurmNode, "-o", "%t")
		return err == nil && out != "", out
	})
	c.daemon(t, slurmd, "-D", "-N", slurmNode, "-f", conf)
	return c
}

// daemon starts a daemon in the foreground, and stops it (SIGTERM, then SIGKILL) when the test
// ends; on a failure its log is shown.
func (c *slurmCluster) daemon(t *testing.T, path string, args ...string) {
	t.Helper()
	cmd := exec.Command(path, args...)
	cmd.Env = c.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("%s:\n%s", filepath.Base(path), out.String())
		}
	})
}

// run runs a Slurm client command against the cluster and returns its trimmed output.
func (c *slurmCluster) run(t *testing.T, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = c.env
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// waitFor polls ok for up to 30 s.
func (c *slurmCluster) waitFor(t *testing.T, what string, ok func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		done, last := ok()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 30 s for %s; last: %s", what, last)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// state is the node's state and reason as sinfo shows them ("idle none", "drain rdmadoctor: ...").
func (c *slurmCluster) state(t *testing.T) string {
	t.Helper()
	out, err := c.run(t, "sinfo", "-h", "-n", slurmNode, "-o", "%t %E")
	if err != nil {
		t.Fatalf("sinfo: %v: %s", err, out)
	}
	return out
}

// waitState waits until the node's state and reason are want.
func (c *slurmCluster) waitState(t *testing.T, want string) {
	t.Helper()
	var got string
	c.waitFor(t, "node state "+want, func() (bool, string) { got = c.state(t); return got == want, got })
}

func (c *slurmCluster) scontrol(t *testing.T, args ...string) {
	t.Helper()
	if out, err := c.run(t, "scontrol", args...); err != nil {
		t.Fatalf("scontrol %s: %v: %s", strings.Join(args, " "), err, out)
	}
}

// TestSlurmHealthCheck runs contrib/slurm/rdmadoctor-healthcheck in a real one-node Slurm
// cluster: slurmd's own start-up run of it as HealthCheckProgram (no arguments, the node name in
// SLURMD_NODENAME) drains the node of corpus case 017 (no subnet manager) with the rule id and
// port as reason; after a resume, a healthy snapshot (corpus 018: warnings only, below the drain
// severity) leaves it idle; a drain reason an operator set is kept; finding nothing about RDMA
// (exit 3) drains nothing, unless --drain-on-no-rdma; rdmadoctor unable to run (exit 2, not
// installed, past the timeout) drains the node for the broken check, saying what broke it, and
// exits 1. What sinfo and the wrapper show is docs/integrations/slurm-*.txt.
func TestSlurmHealthCheck(t *testing.T) {
	rdmadoctor := rdmadoctorOnPath(t)
	wrapper := contribFile(t, "slurm", "rdmadoctor-healthcheck")
	failing, _ := filepath.Abs(corpusCase(t, "017"))
	healthy, _ := filepath.Abs(corpusCase(t, "018"))
	dir := t.TempDir()
	empty := noRDMASnapshot(t, dir)
	conf := filepath.Join(dir, "rdmadoctor-healthcheck")
	setArgs := func(args string) {
		t.Helper()
		if err := os.WriteFile(conf, []byte("RDMADOCTOR_ARGS='"+args+"'\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	setArgs("--snapshot " + failing)
	slurmDir := filepath.Join(dir, "slurm")
	if err := os.Mkdir(slurmDir, 0o700); err != nil {
		t.Fatal(err)
	}
	// slurmd runs a HealthCheckProgram without arguments: what a site puts in
	// /etc/default/rdmadoctor-healthcheck, the test puts in conf.
	hc := filepath.Join(dir, "healthcheck")
	script := fmt.Sprintf("#!/bin/sh\nexport SLURM_CONF=%s RDMADOCTOR=%s RDMADOCTOR_HEALTHCHECK_CONF=%s PATH=%s\nexec %s \"$@\"\n",
		filepath.Join(slurmDir, "slurm.conf"), rdmadoctor, conf, os.Getenv("PATH"), wrapper)
	if err := os.WriteFile(hc, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}

	c := startSlurm(t, slurmDir, hc)
	const drained = "drain rdmadoctor: ib-port-no-subnet-manager ibp4s0/1"
	c.waitState(t, drained)
	// What an operator sees (docs/integrations.md quotes it): sinfo's timestamps normalized.
	norm := (&golden.Normalizer{}).Replace(dir, "$TMP", golden.Root()+"/", "")
	var seen strings.Builder
	for _, args := range [][]string{{"-R"}, {"-R", "-o", "%60E %9u %19H %N"}} {
		out, err := c.run(t, "sinfo", args...)
		if err != nil {
			t.Fatalf("sinfo %v: %v: %s", args, err, out)
		}
		seen.WriteString("$ sinfo " + shellWords(args) + "\n" + out + "\n")
	}
	golden.Check(t, "slurm-drained.txt", norm.Apply(seen.String()))
	seen.Reset()
	// record adds a run of the wrapper to what the operator sees of the cases it does not drain for.
	record := func(what, stderr string) {
		seen.WriteString("# " + what + "\n$ rdmadoctor-healthcheck\n" + stderr)
	}

	healthcheck := func(wantCode int, args ...string) string {
		t.Helper()
		cmd := exec.Command(hc, args...)
		cmd.Env = append(c.env, "SLURMD_NODENAME="+slurmNode)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != wantCode {
			t.Fatalf("rdmadoctor-healthcheck %v: exit %d, want %d; stderr:\n%s", args, code, wantCode, stderr.String())
		}
		return stderr.String()
	}
	resume := func() {
		t.Helper()
		c.scontrol(t, "update", "nodename="+slurmNode, "state=resume")
		c.waitState(t, "idle none")
	}

	// Run again on the drained node: the same reason, nothing changes.
	healthcheck(0)
	if got := c.state(t); got != drained {
		t.Errorf("after a second run: %q, want %q", got, drained)
	}

	resume()
	setArgs("--snapshot " + healthy)
	healthcheck(0)
	if got := c.state(t); got != "idle none" {
		t.Errorf("healthy snapshot: node %q, want idle none", got)
	}

	c.scontrol(t, "update", "nodename="+slurmNode, "state=drain", "reason=RMA ticket 4711")
	setArgs("--snapshot " + failing)
	if stderr := healthcheck(0); !strings.Contains(stderr, "already drain (RMA ticket 4711): leaving it") {
		t.Errorf("operator's drain: stderr %q does not say it left it", stderr)
	} else {
		record("corpus 017 on a node an operator drained (reason \"RMA ticket 4711\")", stderr)
	}
	if got := c.state(t); got != "drain RMA ticket 4711" {
		t.Errorf("operator's drain reason replaced: %q", got)
	}

	resume()
	setArgs("--snapshot " + empty)
	if stderr := healthcheck(0); !strings.Contains(stderr, "nothing about RDMA could be evaluated on "+slurmNode+" (rdmadoctor exit 3): not draining") {
		t.Errorf("rdmadoctor exit 3: stderr %q", stderr)
	} else {
		record("a folder of captures with nothing about RDMA (rdmadoctor exit 3)", stderr)
	}
	if got := c.state(t); got != "idle none" {
		t.Errorf("after rdmadoctor exit 3: node %q, want idle none", got)
	}

	// rdmadoctor cannot read its input: the check is broken, and says so where an operator
	// looks (the drain reason), and exits 1. (A path that exists on no machine, so that the
	// reason's width, quoted in the docs, is the same everywhere.)
	const missing = "/nonexistent/snapshot"
	setArgs("--snapshot " + missing)
	brokenReason := "rdmadoctor: check could not run (exit 2: stat " + missing + ": no such file or directory)"
	if stderr := healthcheck(1); !strings.Contains(stderr, "rdmadoctor could not run on "+slurmNode+": exit 2: stat "+missing) {
		t.Errorf("rdmadoctor exit 2: stderr %q", stderr)
	} else {
		record("an input rdmadoctor cannot read (exit 2): the check is broken, and drains for that", stderr)
	}
	if got := c.state(t); got != "drain "+brokenReason {
		t.Errorf("rdmadoctor exit 2: node %q, want drain %s", got, brokenReason)
	}
	resume()

	// Not installed, and too slow: broken the same way, saying which.
	slow := filepath.Join(dir, "slow-rdmadoctor")
	if err := os.WriteFile(slow, []byte("#!/bin/sh\nexec sleep 60\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, bc := range []struct{ conf, what, reason string }{
		{"RDMADOCTOR=/nonexistent/rdmadoctor\n", "rdmadoctor not installed",
			"rdmadoctor: check could not run (/nonexistent/rdmadoctor not found or not executable)"},
		{"RDMADOCTOR=" + slow + "\nRDMADOCTOR_TIMEOUT=10\n", "rdmadoctor still running after RDMADOCTOR_TIMEOUT=10",
			"rdmadoctor: check could not run (did not finish within 10s)"},
	} {
		if err := os.WriteFile(conf, []byte(bc.conf), 0o644); err != nil {
			t.Fatal(err)
		}
		stderr := healthcheck(1)
		if got := c.state(t); got != "drain "+bc.reason {
			t.Errorf("%s: node %q, want drain %s; stderr:\n%s", bc.what, got, bc.reason, stderr)
		}
		record(bc.what, stderr)
		resume()
	}
	// A live gather whose commands all timed out (rdmadoctor exit 3, saying so): rdmadoctor
	// could not look, so the check is broken too, not "no RDMA".
	hung := livetest.New(t, "", hungStubs())
	lateConf := "export " + live.ToolPathEnv + "=" + hung.Bin + "\nRDMADOCTOR_TIMEOUT=10\nRDMADOCTOR_ARGS='--root " + hung.Root + "'\n"
	if err := os.WriteFile(conf, []byte(lateConf), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr := healthcheck(1)
	lateReason := "drain rdmadoctor: check could not run (exit 3: nothing about RDMA could be evaluated: 19 commands timed out on " + hung.Root
	if got := c.state(t); !strings.HasPrefix(got, lateReason) {
		t.Errorf("live gather timed out: node %q, want %s...; stderr:\n%s", got, lateReason, stderr)
	}
	resume()
	setArgs("--snapshot " + missing)
	healthcheck(1)
	out, err := c.run(t, "sinfo", "-R", "-o", "%E")
	if err != nil {
		t.Fatalf("sinfo: %v: %s", err, out)
	}
	seen.WriteString("$ sinfo -R -o '%E'\n" + out + "\n")
	golden.Check(t, "slurm-not-drained.txt", norm.Apply(seen.String()))
	resume()
	setArgs("--snapshot " + empty)
	healthcheck(0, "--drain-on-no-rdma")
	if got, want := c.state(t), "drain rdmadoctor: no RDMA device or RDMA tool output"; got != want {
		t.Errorf("--drain-on-no-rdma: %q, want %q", got, want)
	}
	if out, _ := c.run(t, "sinfo", "-R", "-o", "%60E %N"); !strings.Contains(out, "rdmadoctor: no RDMA device or RDMA tool output") {
		t.Errorf("sinfo -R:\n%s", out)
	}
}

// shellWords joins args as a shell would read them back: a word with a space or % in single quotes.
func shellWords(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if strings.ContainsAny(a, " %'") {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}
