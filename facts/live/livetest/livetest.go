// Package livetest builds fake nodes for tests of the live gatherer: a root tree (sys/, proc/,
// etc/, var/) from a txtar fixture, and stub tools on a private PATH that print real captured
// outputs from fixtures/, log their argv with start and end times, and sleep or hang on demand.
package livetest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// Case maps an argument list (a shell case pattern on "$*") to the fixture the stub prints.
type Case struct {
	Args    string
	Fixture string
	// Exit is the stub's exit code.
	Exit int
	// Then, when set, is printed instead of Fixture from the second call on (counters that moved).
	Then string
}

// Stub is one fake tool.
type Stub struct {
	Cases []Case
	// Delay is how long the stub sleeps before printing (a sleep(1) argument, e.g. "0.3").
	Delay string
	// Hang makes the stub start `sleep 1000` as a child, record its pid and wait for it.
	Hang bool
	// Escape makes the stub start `setsid sleep 100` in the background (a session of its own,
	// out of the stub's process group), record its pid and exit without waiting.
	Escape bool
}

// Stubs are the default fake tools of an RDMA node: every tool the gatherer runs, each printing a
// real capture from fixtures/ (see fixtures/<tool>/PROVENANCE.md).
func Stubs() map[string]Stub {
	one := func(f string) Stub { return Stub{Cases: []Case{{Args: "*", Fixture: f}}} }
	link := Stub{Cases: []Case{
		{Args: "*--port_type PCIE*", Fixture: "mlxlink/cx6-pcie-gen1-x4.txt"},
		{Args: "*", Fixture: "mlxlink/bf3-100g-module-counters.txt"},
	}}
	return map[string]Stub{
		"ibstat":      one("ibstat/h100-ndr-eth-disabled.txt"),
		"ibstatus":    one("ibstatus/roce-ndr.txt"),
		"ibv_devinfo": one("ibv_devinfo/cx4lx-roce-verbose-gids.txt"),
		"ibv_devices": one("ibv_devices/vfs-zero-guid.txt"),
		"iblinkinfo":  one("iblinkinfo/quantum-switch-could-be.txt"),
		"sminfo":      one("sminfo/master.txt"),
		"perfquery":   one("perfquery/cx4-lab-capmask-0x1600.txt"),
		"mstconfig":   one("mstconfig/cx4-e-query-nic-config-operator.txt"),
		"mstflint":    one("flint/cx4-lenovo-fs3.txt"),
		"mstlink":     link,
		"ethtool": {Cases: []Case{
			{Args: "-i *", Fixture: "ethtool_driver/mlx5-ipoib-psid.txt"},
			{Args: "-m *", Fixture: "ethtool_module/qsfp28-sr4-mellanox.txt"},
			{Args: "-S *", Fixture: "ethtool_stats/mlx5-xdp-kernel-5.15.txt"},
			{Args: "-a *", Fixture: "ethtool_pause/cx2-ens5.txt"},
			{Args: "--show-fec *", Fixture: "ethtool_fec/dgx-spark-auto-rs.txt"},
			{Args: "*", Fixture: "ethtool/ipoib-hdr100-10g.txt"},
		}},
		"lspci": {Cases: []Case{
			{Args: "-tv", Fixture: "lspci/tree-puget-wrx90-cx7.txt"},
			{Args: "*", Fixture: "lspci/cx5-nn-pf-vfs.txt"},
		}},
		"ip":           one("ip_addr/ipoib-ib0-ipv6-global.txt"),
		"lsmod":        one("lsmod/rhel8-grep-ipoib.txt"),
		"sysctl":       one("sysctl/hotsos-openstack-kernel_EXCERPT.txt"),
		"dmesg":        one("dmesg/cx7-hotplug-link-up.txt"),
		"ibdev2netdev": one("ibdev2netdev/verbose-sriov-vfs.txt"),
		"show_gids":    one("show_gids/vlan-link-local.txt"),
		"rdma":         one("rdma_link/dgx-a100.txt"),
		"mst":          one("mst_status/cx6-one-pciconf.txt"),
		"uname":        one("live/uname-r-build-vm.txt"),
		"hostname":     one("live/hostname-build-vm.txt"),
		"systemctl":    {Cases: []Case{{Args: "*", Fixture: "systemctl/opensm-lsb-active-standby.txt", Exit: 3}}},
	}
}

// Env is a fake node.
type Env struct {
	// Root is the fake root directory; Bin holds the stubs; Log collects one line per stub
	// start ("start <unix ns> <tool> <args>") and end ("end <unix ns> <tool> <args>").
	Root, Bin, Log string
	// Pids holds "<pid>" lines of the children hanging stubs started.
	Pids string
	// Timed makes stubs log start and end times (otherwise 0), at the cost of two more processes.
	Timed bool
}

// New extracts fixtures/live/<rootFixture> as the root and writes the stubs.
func New(t testing.TB, rootFixture string, stubs map[string]Stub) *Env {
	return NewTimed(t, rootFixture, stubs, false)
}

// NewTimed is New with stubs that log their start and end times when timed is set.
func NewTimed(t testing.TB, rootFixture string, stubs map[string]Stub, timed bool) *Env {
	t.Helper()
	dir := t.TempDir()
	e := &Env{Root: filepath.Join(dir, "root"), Bin: filepath.Join(dir, "bin"),
		Log: filepath.Join(dir, "argv.log"), Pids: filepath.Join(dir, "pids"), Timed: timed}
	if rootFixture != "" {
		for _, f := range parseTxtar(fixtures.Read(t, "live/"+rootFixture)) {
			p := filepath.Join(e.Root, filepath.FromSlash(f.name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	} else if err := os.MkdirAll(e.Root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(e.Bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for tool, s := range stubs {
		if err := os.WriteFile(filepath.Join(e.Bin, tool), []byte(e.script(tool, s)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (e *Env) script(tool string, s Stub) string {
	// Process creation is slow on small VMs: the stub is one sh with builtins only, plus date(1)
	// for the timestamps when Timed is set.
	stamp := func(what string) string {
		if e.Timed {
			return fmt.Sprintf("echo \"%s $(/bin/date +%%s%%N) %s $*\" >> %s\n", what, tool, e.Log)
		}
		return fmt.Sprintf("echo \"%s 0 %s $*\" >> %s\n", what, tool, e.Log)
	}
	var b strings.Builder
	b.WriteString("#!/bin/sh\n" + stamp("start"))
	if s.Delay != "" {
		fmt.Fprintf(&b, "/bin/sleep %s\n", s.Delay)
	}
	if s.Hang {
		fmt.Fprintf(&b, "/bin/sleep 1000 &\necho $! >> %s\nwait\n", e.Pids)
	}
	if s.Escape {
		// A background job of a script is not a group leader: setsid(1) does not fork, so $!
		// is the sleep's pid.
		setsid, err := exec.LookPath("setsid") // the stubs' PATH holds only the stubs
		if err != nil {
			panic("livetest: Escape needs setsid(1) (util-linux): " + err.Error())
		}
		fmt.Fprintf(&b, "%s /bin/sleep 100 < /dev/null > /dev/null 2>&1 &\necho $! >> %s\n", setsid, e.Pids)
	}
	b.WriteString("rc=0\ncase \"$*\" in\n")
	for _, c := range s.Cases {
		data, err := os.ReadFile(fixtures.Path(c.Fixture))
		if err != nil {
			panic(err)
		}
		out := fmt.Sprintf("printf '%%s' '%s'", quote(data))
		if c.Then != "" {
			then, err := os.ReadFile(fixtures.Path(c.Then))
			if err != nil {
				panic(err)
			}
			mark := filepath.Join(filepath.Dir(e.Log), tool+"-called-"+strings.NewReplacer(" ", "_", "*", "").Replace(c.Args))
			out = fmt.Sprintf("if [ -e %s ]; then printf '%%s' '%s'; else : > %s; %s; fi", mark, quote(then), mark, out)
		}
		fmt.Fprintf(&b, "  %s) %s; rc=%d ;;\n", strings.ReplaceAll(c.Args, " ", "\\ "), out, c.Exit)
	}
	b.WriteString("esac\n" + stamp("end") + "exit $rc\n")
	return b.String()
}

// Call is one logged stub run.
type Call struct {
	Argv       []string
	Start, End int64 // unix ns; End is 0 when the stub was killed
}

// Calls reads the log: one Call per stub run, in start order.
func (e *Env) Calls(t testing.TB) []Call {
	t.Helper()
	f, err := os.Open(e.Log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var calls []Call
	open := map[string][]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) < 3 {
			continue
		}
		ns, _ := strconv.ParseInt(w[1], 10, 64)
		key := strings.Join(w[2:], " ")
		switch w[0] {
		case "start":
			open[key] = append(open[key], len(calls))
			calls = append(calls, Call{Argv: w[2:], Start: ns})
		case "end":
			if idx := open[key]; len(idx) > 0 {
				calls[idx[0]].End = ns
				open[key] = idx[1:]
			}
		}
	}
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].Start < calls[j].Start })
	return calls
}

// HungPids returns the pids of the children hanging stubs started.
func (e *Env) HungPids(t testing.TB) []int {
	t.Helper()
	b, err := os.ReadFile(e.Pids)
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		n, _ := strconv.Atoi(f)
		out = append(out, n)
	}
	return out
}

// Alive reports whether pid is a live process (a zombie counts as dead).
func Alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

type txtarFile struct {
	name string
	data []byte
}

// parseTxtar reads the txtar format (golang.org/x/tools/txtar): a comment, then files each
// introduced by a "-- name --" line.
func parseTxtar(b []byte) []txtarFile {
	var files []txtarFile
	for _, line := range strings.SplitAfter(string(b), "\n") {
		t := strings.TrimRight(line, "\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			files = append(files, txtarFile{name: strings.TrimSpace(t[3 : len(t)-3])})
			continue
		}
		if len(files) > 0 {
			f := &files[len(files)-1]
			f.data = append(f.data, line...)
		}
	}
	return files
}

// quote escapes b for a single-quoted shell word.
func quote(b []byte) string { return strings.ReplaceAll(string(b), "'", `'\''`) }
