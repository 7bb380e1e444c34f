package live_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/live/livetest"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func stubs(delay string) map[string]livetest.Stub {
	m := livetest.Stubs()
	for k, s := range m {
		s.Delay = delay
		m[k] = s
	}
	return m
}

func gatherEnv(t *testing.T, e *livetest.Env, opts live.Options) *live.Result {
	t.Helper()
	opts.Root, opts.Path = e.Root, []string{e.Bin}
	return live.Gather(context.Background(), opts)
}

type ran struct{ Argv, Status, File, Error string }

func summarize(rs []live.Run) []ran {
	var out []ran
	for _, r := range rs {
		out = append(out, ran{strings.Join(r.Argv, " "), r.Status, r.File, r.Error})
	}
	return out
}

func TestGatherStubs(t *testing.T) {
	e := livetest.New(t, "root-h100.txtar", stubs(""))
	res := gatherEnv(t, e, live.Options{})

	var want []ran
	add := func(argv, plugin string) {
		want = append(want, ran{argv, live.RanOK, "sos_commands/" + plugin + "/" + build.Mangle(argv), ""})
	}
	add("dmesg", "kernel")
	for _, a := range []string{"", "--show-fec ", "-S ", "-a ", "-i ", "-m "} {
		add("ethtool "+a+"eth2", "networking") // eth2 is the only netdev with a device
	}
	add("hostname", "host")
	add("ibdev2netdev", "infiniband")
	for _, dev := range []string{"mlx5_4", "mlx5_7"} {
		add("iblinkinfo -C "+dev+" -P 1", "infiniband") // mlx5_bond_0 is Ethernet: no fabric queries
	}
	add("ibstat", "infiniband")
	add("ibstatus", "infiniband")
	add("ibv_devices", "infiniband")
	add("ibv_devinfo -v", "infiniband")
	add("ip -d address", "networking")
	add("ip -o addr", "networking")
	add("ip -s -d link", "networking")
	add("lsmod", "kernel")
	add("lspci -nnvv", "pci")
	add("lspci -tv", "pci")
	add("mst status", "mellanox_firmware")
	add("mstconfig -d 0000:17:00.0 -e q", "mellanox_firmware") // not the VF 17:00.1, not the Intel function
	add("mstflint -d 0000:17:00.0 q", "mellanox_firmware")     // flint is not installed: the alternative
	add("mstlink -d 0000:17:00.0 --port_type PCIE", "mellanox_firmware")
	add("mstlink -d 0000:17:00.0 -m -c", "mellanox_firmware")
	for _, dev := range []string{"mlx5_4", "mlx5_7"} {
		add("perfquery -C "+dev+" -P 1", "infiniband")
	}
	add("rdma link", "infiniband")
	add("show_gids", "infiniband")
	for _, dev := range []string{"mlx5_4", "mlx5_7"} {
		add("sminfo -C "+dev+" -P 1", "infiniband")
	}
	add("sysctl -a", "kernel")
	add("systemctl status opensm irqbalance", "systemd")
	add("uname -r", "kernel")
	sort.SliceStable(want, func(i, j int) bool { return want[i].Argv < want[j].Argv })
	if diff := cmp.Diff(want, summarize(res.Meta.Commands)); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}

	// Outputs are filed under their sos names with the stub's (real) output.
	for file, fixture := range map[string]string{
		"sos_commands/mellanox_firmware/mstconfig_-d_0000_17_00.0_-e_q":           "mstconfig/cx4-e-query-nic-config-operator.txt",
		"sos_commands/mellanox_firmware/mstlink_-d_0000_17_00.0_--port_type_PCIE": "mlxlink/cx6-pcie-gen1-x4.txt",
		"sos_commands/infiniband/perfquery_-C_mlx5_4_-P_1":                        "perfquery/cx4-lab-capmask-0x1600.txt",
		"sos_commands/networking/ethtool_-m_eth2":                                 "ethtool_module/qsfp28-sr4-mellanox.txt",
	} {
		f, ok := res.FS[file]
		if !ok {
			t.Errorf("%s not written", file)
			continue
		}
		if string(f.Data) != string(fixtures.Read(t, fixture)) {
			t.Errorf("%s does not hold the output of the stub (%s)", file, fixture)
		}
	}
	// Copied files.
	for _, p := range []string{
		"sys/class/infiniband/mlx5_4/ports/1/state", "sys/class/infiniband/mlx5_4/ports/1/counters/symbol_error",
		"sys/class/infiniband/mlx5_4/ports/1/hw_counters/out_of_buffer", "sys/class/infiniband/mlx5_bond_0/fw_ver",
		"sys/class/net/ib0/mode", "sys/class/net/eth2/ecn/roce_rp/enable/3", "sys/class/net/eth2/device/local_cpulist",
		"proc/interrupts", "proc/irq/109/effective_affinity_list", "etc/opensm/opensm.conf", "var/log/opensm.log",
		"proc/meminfo", "sys/kernel/mm/transparent_hugepage/enabled", "etc/security/limits.conf", live.MetaFile,
	} {
		if _, ok := res.FS[p]; !ok {
			t.Errorf("%s not copied", p)
		}
	}
	for p := range res.FS {
		if strings.HasPrefix(p, "sys/bus/") {
			t.Errorf("%s copied: PCI functions are only discovered", p)
		}
	}
}

// TestGatherRunsOnlyAllowed proves from the stubs' own log that nothing outside the allow-list
// ran (ibportstate is on PATH and must never run) and that every logged call was planned.
func TestGatherRunsOnlyAllowed(t *testing.T) {
	s := stubs("")
	s["ibportstate"] = livetest.Stub{Cases: []livetest.Case{{Args: "*", Fixture: "ibstat/h100-ndr-eth-disabled.txt"}}}
	e := livetest.New(t, "root-h100.txtar", s)
	res := gatherEnv(t, e, live.Options{})
	calls := e.Calls(t)
	if len(calls) == 0 {
		t.Fatal("no stub ran")
	}
	planned := map[string]bool{}
	for _, r := range res.Meta.Commands {
		planned[strings.Join(r.Argv, " ")] = true
	}
	for _, c := range calls {
		if err := live.Check(c.Argv); err != nil {
			t.Errorf("ran a command outside the allow-list: %v", err)
		}
		if !planned[strings.Join(c.Argv, " ")] {
			t.Errorf("ran %q, which is not in rdmadoctor.yaml", strings.Join(c.Argv, " "))
		}
	}
}

// TestGatherOverlaps proves that commands run in parallel, and never more than Jobs at once.
func TestGatherOverlaps(t *testing.T) {
	all := stubs("0.3")
	some := map[string]livetest.Stub{}
	for _, tool := range []string{"ibstat", "ibstatus", "ibv_devinfo", "iblinkinfo", "sminfo", "perfquery", "ethtool"} {
		some[tool] = all[tool]
	}
	e := livetest.NewTimed(t, "root-h100.txtar", some, true)
	start := time.Now()
	gatherEnv(t, e, live.Options{Jobs: 4})
	wall := time.Since(start)
	calls := e.Calls(t)
	var sum time.Duration
	type edge struct {
		at    int64
		delta int
	}
	var edges []edge
	for _, c := range calls {
		if c.End == 0 {
			t.Fatalf("%v did not finish", c.Argv)
		}
		sum += time.Duration(c.End - c.Start)
		edges = append(edges, edge{c.Start, 1}, edge{c.End, -1})
	}
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].at != edges[j].at {
			return edges[i].at < edges[j].at
		}
		return edges[i].delta < edges[j].delta
	})
	cur, peak := 0, 0
	for _, ed := range edges {
		cur += ed.delta
		peak = max(peak, cur)
	}
	if peak < 2 || peak > 4 {
		t.Errorf("peak concurrency %d, want between 2 and Jobs=4", peak)
	}
	if wall > sum/2 {
		t.Errorf("wall time %v is not well below the sum of command times %v", wall, sum)
	}
}

// TestGatherKillsHungCommand: a stub whose child sleeps 1000 s is killed at the command timeout
// with its child, and the rest of the snapshot still comes. It asserts the mechanism (the run is
// recorded as killed at its timeout, held no longer than that and far less than the child's
// sleep, its child is gone, the other commands ran), not how long the gather took: on a loaded
// machine that says nothing. The command timeout leaves the hung stub time to start its child
// and the other stubs to print their captures even when the machine is busy.
func TestGatherKillsHungCommand(t *testing.T) {
	const timeout = 3 * time.Second
	s := stubs("")
	st := s["ibstat"]
	st.Hang = true
	s["ibstat"] = st
	e := livetest.New(t, "root-h100.txtar", s)
	res := gatherEnv(t, e, live.Options{CommandTimeout: timeout, Timeout: 10 * time.Minute})
	var got *live.Run
	for i, r := range res.Meta.Commands {
		if strings.Join(r.Argv, " ") == "ibstat" {
			got = &res.Meta.Commands[i]
		}
	}
	if got == nil || got.Status != live.RanTimeout || !got.TimedOut || got.Error != "killed after 3s" {
		t.Fatalf("ibstat run = %+v, want a timeout", got)
	}
	// Held until its timeout, and ended by the kill: not by its child's 1000 s sleep.
	if got.DurationSeconds < timeout.Seconds() || got.DurationSeconds >= 1000 {
		t.Errorf("ibstat ran %.1fs, want from its %v timeout to well below its child's 1000 s", got.DurationSeconds, timeout)
	}
	pids := e.HungPids(t)
	if len(pids) != 1 {
		t.Fatalf("hung children: %v", pids)
	}
	waitDead(t, pids[0])
	if _, ok := res.FS["sos_commands/infiniband/ibstatus"]; !ok {
		t.Error("other commands' output missing after a hung command")
	}
}

// waitDead fails the test unless process pid is gone (or a zombie) soon. The kill is sent
// before Gather returns; the wait only covers the kernel and init reaping it on a busy machine,
// and ends as soon as it is gone.
func waitDead(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for livetest.Alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if livetest.Alive(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("process %d left by a stub survived the gather", pid)
	}
}

// TestGatherKillsEscapedGrandchild: a stub that leaves a `setsid sleep 100` behind (out of its
// process group, which the timeout kills) does not outlive the gather (issue 10).
func TestGatherKillsEscapedGrandchild(t *testing.T) {
	s := stubs("")
	st := s["ibstatus"]
	st.Escape = true
	s["ibstatus"] = st
	e := livetest.New(t, "root-h100.txtar", s)
	res := gatherEnv(t, e, live.Options{})
	if _, ok := res.FS["sos_commands/infiniband/ibstatus"]; !ok {
		t.Error("the stub's output is missing")
	}
	pids := e.HungPids(t)
	if len(pids) != 1 {
		t.Fatalf("escaped grandchildren: %v", pids)
	}
	waitDead(t, pids[0])
}

// TestGatherDeadline: when every command hangs, the whole gather still ends at its deadline.
func TestGatherDeadline(t *testing.T) {
	s := stubs("")
	for k, st := range s {
		st.Hang = true
		s[k] = st
	}
	e := livetest.New(t, "root-h100.txtar", s)
	start := time.Now()
	res := gatherEnv(t, e, live.Options{Timeout: 1500 * time.Millisecond, Jobs: 4})
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("gather took %v with a 1.5s deadline", d)
	}
	n := map[string]int{}
	for _, r := range res.Meta.Commands {
		n[r.Status]++
	}
	if n[live.RanTimeout] == 0 || n[live.RanNotRun] == 0 || n[live.RanOK] != 0 {
		t.Errorf("statuses %v, want timeouts and not_run only", n)
	}
	if _, ok := res.FS[live.MetaFile]; !ok {
		t.Error("no rdmadoctor.yaml after the deadline")
	}
}

// TestGatherUnreadableFile: one file that cannot be read is recorded; the rest is gathered.
func TestGatherUnreadableFile(t *testing.T) {
	e := livetest.New(t, "root-h100.txtar", nil)
	mtu := filepath.Join(e.Root, "sys/class/net/ib0/mtu")
	if err := os.Remove(mtu); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(mtu, 0o755); err != nil { // reading a directory fails with EISDIR
		t.Fatal(err)
	}
	fifo := filepath.Join(e.Root, "sys/class/infiniband/mlx5_4/ports/1/counters/port_rcv_errors")
	if err := os.Remove(fifo); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil { // not a regular file: never opened, named
		t.Fatal(err)
	}
	res := gatherEnv(t, e, live.Options{})
	want := []live.Unreadable{
		{Path: "sys/class/infiniband/mlx5_4/ports/1/counters/port_rcv_errors", Error: "not a regular file (FIFO)"},
		{Path: "sys/class/net/ib0/mtu", Error: "not a regular file (directory)"},
	}
	if diff := cmp.Diff(want, res.Meta.Unreadable); diff != "" {
		t.Errorf("unreadable (-want +got):\n%s", diff)
	}
	for _, p := range []string{"sys/class/net/ib0/mode", "sys/class/infiniband/mlx5_4/ports/1/counters/symbol_error"} {
		if _, ok := res.FS[p]; !ok {
			t.Errorf("%s missing after an unreadable sibling", p)
		}
	}
	// Missing tools are explained, not fatal.
	for _, r := range res.Meta.Commands {
		if r.Status != live.RanMissing || !strings.Contains(r.Error, "not installed (package: ") {
			t.Errorf("%v: %s %q, want missing with a package hint", r.Argv, r.Status, r.Error)
		}
	}
}

// TestGatherOutputBudget: the commands of a gather share one output budget; a command cut by it
// is recorded truncated, and its source is partial, the cut its error: the report is incomplete.
func TestGatherOutputBudget(t *testing.T) {
	e := livetest.New(t, "root-h100.txtar", stubs(""))
	const budget = 4096
	s, res, err := live.Snapshot(context.Background(), live.Options{Root: e.Root, Path: []string{e.Bin}, MaxOutput: budget})
	if err != nil {
		t.Fatal(err)
	}
	total, cut := 0, map[string]bool{}
	for _, r := range res.Meta.Commands {
		if f, ok := res.FS[r.File]; ok && r.File != "" {
			total += len(f.Data)
		}
		if r.Truncated {
			if !strings.Contains(r.Error, "the gather's output budget") {
				t.Errorf("%v: error %q does not name the budget", r.Argv, r.Error)
			}
			cut[r.File] = true
		}
	}
	if total > budget {
		t.Errorf("the commands kept %d bytes, over the budget of %d", total, budget)
	}
	if len(cut) == 0 {
		t.Fatal("no command was cut by a budget of 4096 bytes")
	}
	partial := 0
	for _, src := range s.Sources {
		if !cut[src.Origin] {
			continue
		}
		switch src.Status {
		case facts.StatusPartial:
			partial++
			if !strings.Contains(src.Error, "the gather's output budget") || !strings.Contains(src.Error, "the rest was not gathered") {
				t.Errorf("partial source %s of a cut output: error %q", src.Origin, src.Error)
			}
			if !src.Incomplete() {
				t.Errorf("partial source %s of a cut output is not incomplete", src.Origin)
			}
		case facts.StatusOK:
			t.Errorf("source %s of a cut output is ok: %+v", src.Origin, src)
		default:
			if !strings.Contains(src.Note, "the rest was not gathered") {
				t.Errorf("source %s (%s) of a cut output: note %q", src.Origin, src.Status, src.Note)
			}
		}
	}
	if partial == 0 {
		t.Error("no source of a cut output is partial")
	}
}

// starts records an observer's calls: each task must be started before it is done, so the
// progress line can name what is still running.
type starts struct {
	mu      sync.Mutex
	running map[string]int
	started int
	errs    []string
}

func (s *starts) Planned(int) {}
func (s *starts) Finish()     {}
func (s *starts) Started(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running[name]++
	s.started++
}
func (s *starts) Done(name string, _ *live.Run) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running[name] == 0 {
		s.errs = append(s.errs, name+" done but never started")
	}
	s.running[name]--
}

// TestObserverStarted: an observer that is a live.Starter hears of every task as it starts, and
// of its end after; at the end nothing is running.
func TestObserverStarted(t *testing.T) {
	e := livetest.New(t, "root-h100.txtar", stubs("0.05"))
	obs := &starts{running: map[string]int{}}
	gatherEnv(t, e, live.Options{Observer: obs})
	if obs.started < 10 {
		t.Errorf("%d tasks started, want every command and copy of the gather", obs.started)
	}
	for _, err := range obs.errs {
		t.Error(err)
	}
	for name, n := range obs.running {
		if n != 0 {
			t.Errorf("%s: %d still running at the end", name, n)
		}
	}
}
