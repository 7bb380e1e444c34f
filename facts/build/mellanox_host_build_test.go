package build_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// sourceStatus maps each origin read by one of specs to its status.
func sourceStatus(s *facts.Snapshot, specs ...string) map[string]string {
	out := map[string]string{}
	for _, src := range s.Sources {
		for _, sp := range specs {
			if src.Name == sp && src.Status != facts.StatusMissing {
				out[src.Origin] = src.Status
			}
		}
	}
	return out
}

func TestBuildMellanoxFirmwareCases(t *testing.T) {
	ev := func(source, path string, line int, fixture string) facts.Evidence {
		e := fixtureLine(t, fixture, line)
		e.Source, e.Path = source, path
		return e
	}

	// Case 046: mlxup names /dev/mst nodes; mst status gives their PCI addresses (two domains).
	s := snapshotOf(t, fixtures.Files(t, map[string]string{
		"mlxup_--query": "mlxfwmanager/mlxup-cx7-update-required.txt",
		"mst_status":    "mst_status/cx7-two-domains.txt",
	}))
	type fw struct{ Tool, Device, PCIAddress, PSID, Version, AvailableVersion, Status string }
	var gotFW []fw
	for _, f := range s.Firmware {
		gotFW = append(gotFW, fw{f.Tool, f.Device, f.PCIAddress, f.PSID, f.Version, f.AvailableVersion, f.Status})
	}
	wantFW := []fw{
		{"mlxup", "/dev/mst/mt4129_pciconf1", "0001:05:00.0", "MT_0000000834", "28.40.1000", "28.43.1014", "Update required"},
		{"mlxup", "/dev/mst/mt4129_pciconf0", "0000:05:00.0", "MT_0000000834", "28.40.1000", "28.43.1014", "Update required"},
	}
	if diff := cmp.Diff(wantFW, gotFW); diff != "" {
		t.Errorf("046 firmware (-want +got):\n%s", diff)
	}
	if got, want := s.Firmware[0].Evidence["available_version"], ev("mlxup", "mlxup_--query", 13, "mlxfwmanager/mlxup-cx7-update-required.txt"); got != want {
		t.Errorf("046 evidence %+v, want %+v", got, want)
	}
	wantMST := []facts.MSTDevice{
		{Path: "/dev/mst/mt4129_pciconf0", PCIAddress: "0000:05:00.0", Evidence: ev("mst_status", "mst_status", 8, "mst_status/cx7-two-domains.txt")},
		{Path: "/dev/mst/mt4129_pciconf1", PCIAddress: "0001:05:00.0", Evidence: ev("mst_status", "mst_status", 11, "mst_status/cx7-two-domains.txt")},
	}
	if diff := cmp.Diff(wantMST, s.MSTDevices); diff != "" {
		t.Errorf("046 mst devices (-want +got):\n%s", diff)
	}

	// Case 045: two flint queries (before, and after a burn that is not active yet), the burn log
	// itself (recognised, no facts) and an mlxconfig query the tool refused.
	s = snapshotOf(t, fixtures.Files(t, map[string]string{
		"flint_-d_.dev.mst.mt4099_pci_cr0_query_full_BEFORE":     "flint/cx3-fs2-blank-guids-before.txt",
		"flint_-d_.dev.mst.mt4099_pci_cr0_query_full_AFTER_BURN": "flint/cx3-fs2-after-burn-running-old.txt",
		"flint_-d_.dev.mst.mt4099_pci_cr0_burn":                  "flint/cx3-burn-log.txt",
		"mlxconfig_-d_.dev.mst.mt4099_pciconf0_query_BEFORE":     "mstconfig/cx3-failed-to-query.txt",
		"mst_status": "mst_status/cx3-cr-and-pciconf.txt",
	}))
	gotFW = nil
	for _, f := range s.Firmware {
		gotFW = append(gotFW, fw{f.Tool, f.Device, f.PCIAddress, f.PSID, f.Version + "/" + f.PendingVersion, f.BaseGUID, f.ImageType})
	}
	wantFW = []fw{
		{"flint", "/dev/mst/mt4099_pci_cr0", "0000:01:00.0", "MT_1170110023", "2.35.5100/2.42.5000", "ffffffffffffffff", "FS2"},
		{"flint", "/dev/mst/mt4099_pci_cr0", "0000:01:00.0", "MT_1170110023", "2.35.5100/", "ffffffffffffffff", "FS2"},
	}
	if diff := cmp.Diff(wantFW, gotFW); diff != "" {
		t.Errorf("045 firmware (-want +got):\n%s", diff)
	}
	wantNV := []facts.NVConfig{{
		Device: "/dev/mst/mt4099_pciconf0", PCIAddress: "0000:01:00.0", DeviceType: "ConnectX3", Tool: "mlxconfig",
		Refusal: "-E- Failed to query device current configuration",
	}}
	if diff := cmp.Diff(wantNV, s.NVConfig, cmpopts.IgnoreFields(facts.NVConfig{}, "Evidence")); diff != "" {
		t.Errorf("045 nvconfig (-want +got):\n%s", diff)
	}
	wantStatus := map[string]string{
		"flint_-d_.dev.mst.mt4099_pci_cr0_query_full_BEFORE":     facts.StatusOK,
		"flint_-d_.dev.mst.mt4099_pci_cr0_query_full_AFTER_BURN": facts.StatusOK,
		"flint_-d_.dev.mst.mt4099_pci_cr0_burn":                  facts.StatusUnrecognized, // a burn log, not a query: nothing is read from it
		"mlxconfig_-d_.dev.mst.mt4099_pciconf0_query_BEFORE":     facts.StatusUnsupported,
	}
	if diff := cmp.Diff(wantStatus, sourceStatus(s, "flint_query", "mstconfig_query")); diff != "" {
		t.Errorf("045 sources (-want +got):\n%s", diff)
	}

	// Case 112: a grep of `mlxconfig -d b1:00.0 q`; the device comes from the file name.
	s = snapshotOf(t, fixtures.Files(t, map[string]string{"mlxconfig_-d_b1_00.0_q_grep_LINK": "mstconfig/cx6-grep-link.txt"}))
	if len(s.NVConfig) != 1 || s.NVConfig[0].Device != "b1:00.0" || s.NVConfig[0].PCIAddress != "0000:b1:00.0" ||
		s.NVConfig[0].Params["LINK_TYPE_P1"].NextBoot != "IB(1)" ||
		s.NVConfig[0].Params["LINK_TYPE_P1"].Evidence != ev("mstconfig_query", "mlxconfig_-d_b1_00.0_q_grep_LINK", 1, "mstconfig/cx6-grep-link.txt") {
		t.Errorf("112 nvconfig %+v", s.NVConfig)
	}
}

func TestBuildHostCases(t *testing.T) {
	// Case 101: mstconfig without -d, and systemd's view of two opensm instances.
	s := snapshotOf(t, fixtures.Files(t, map[string]string{
		"mstconfig_query":         "mstconfig/cx3-hp544-p1-eth-p2-vpi.txt",
		"systemctl_status_opensm": "systemctl/opensm-lsb-active-standby.txt",
	}))
	if len(s.NVConfig) != 1 {
		t.Fatalf("101 nvconfig %+v", s.NVConfig)
	}
	nv := s.NVConfig[0]
	if nv.PCIAddress != "0000:05:00.0" || nv.Tool != "mstconfig" || nv.Params["LINK_TYPE_P1"].NextBoot != "ETH(2)" ||
		nv.Params["LINK_TYPE_P2"].NextBoot != "VPI(3)" || nv.Params["LINK_TYPE_P2"].Evidence.Path != "mstconfig_query" {
		t.Errorf("101 nvconfig %+v", nv)
	}
	lsb := "systemctl/opensm-lsb-active-standby.txt"
	wantHost := facts.Host{
		Services: map[string]facts.Service{"opensm": {Loaded: "loaded", Enabled: "generated", Active: "active", Sub: "running",
			Evidence: stamped(fixtureLine(t, lsb, 3), "systemctl", "systemctl_status_opensm")}},
		OpenSM: &facts.OpenSM{LogEvents: []facts.OpenSMEvent{
			{Kind: "exiting", Evidence: stamped(fixtureLine(t, lsb, 18), "systemctl", "systemctl_status_opensm")},
			{Kind: "standby", Evidence: stamped(fixtureLine(t, lsb, 19), "systemctl", "systemctl_status_opensm")},
		}},
	}
	if diff := cmp.Diff(wantHost, s.Host, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("101 host (-want +got):\n%s", diff)
	}

	// Case 111: `lsmod | grep mlx` without mlx5_core, and openibd failing to load it.
	s = snapshotOf(t, fixtures.Files(t, map[string]string{
		"lsmod_grep_mlx":             "lsmod/pve-grep-mlx-no-mlx5.txt",
		"etc.init.d.openibd_restart": "systemctl/openibd-restart-mlx5-failed.txt",
	}))
	var mods []string
	for _, m := range s.Host.Modules {
		mods = append(mods, m.Name)
	}
	if diff := cmp.Diff([]string{"mlxdevm", "mlxfw", "mlx_compat"}, mods); diff != "" || s.Host.ModulesFilter != "mlx" {
		t.Errorf("111 modules (filter %q) (-want +got):\n%s", s.Host.ModulesFilter, diff)
	}
	if len(s.Host.Userspace) != 5 || s.Host.Userspace[2].Message != "Failed loading kernel module mlx5_core" ||
		s.Host.Userspace[2].Evidence.Path != "etc.init.d.openibd_restart" {
		t.Errorf("111 userspace %+v", s.Host.Userspace)
	}

	// A sosreport-shaped tree of host files, plus /proc/sys and THP captured on a Linux VM.
	files := map[string]string{
		"sos_commands/kernel/sysctl_-a":              "sysctl/hotsos-openstack-kernel_EXCERPT.txt",
		"sos_commands/kernel/uname_-a":               "uname/hotsos-openstack-uname-a.txt",
		"sos_commands/kernel/lsmod":                  "lsmod/hotsos-openstack-full.txt",
		"proc/meminfo":                               "meminfo/coreos-master1.txt",
		"etc/security/limits.conf":                   "limits/linux-pam-default-limits.conf",
		"etc/security/limits.d/audio.conf":           "limits/rudd-o-recordingstudio-limits.conf",
		"sys/kernel/mm/transparent_hugepage/enabled": "thp/sandbox-enabled.txt",
		"sos_commands/kernel/dmesg":                  "dmesg/mlx5-probe-fails-handle-hca-cap.txt",
		"sos_commands/process/ulimit_-a":             "ulimit/sge-job-memlock-32.txt",
	}
	fsys := fixtures.Files(t, files)
	addTree(t, fsys, filepath.Join(fixtures.Dir(), "proc_sys", "sandbox"))
	addTree(t, fsys, filepath.Join(fixtures.Dir(), "sysfs_cpufreq", "sandbox-no-cpufreq"))
	s = snapshotOf(t, fsys)
	h := s.Host
	if h.Hostname != "compute4" || h.Kernel != "6.18.44-fc-v782" {
		// proc/sys (kernel.osrelease) is read before sysctl -a and uname -a; the host name comes from sysctl.
		t.Errorf("hostname %q kernel %q", h.Hostname, h.Kernel)
	}
	if h.HugePagesTotal == nil || *h.HugePagesTotal != 0 || h.THP != "madvise" || len(h.Modules) != 119 || h.ModulesFilter != "" {
		t.Errorf("hugepages %v thp %q modules %d", h.HugePagesTotal, h.THP, len(h.Modules))
	}
	if h.Memlock == nil || h.Memlock.SoftKiB == nil || *h.Memlock.SoftKiB != 32 || h.Memlock.Evidence.Path != "sos_commands/process/ulimit_-a" {
		t.Errorf("memlock %+v", h.Memlock)
	}
	wantRules := []facts.LimitRule{{Domain: "*", Type: "hard", Item: "memlock", Unlimited: true,
		Evidence: stamped(fixtureLine(t, "limits/rudd-o-recordingstudio-limits.conf", 4), "limits", "etc/security/limits.d/audio.conf")}}
	if diff := cmp.Diff(wantRules, h.MemlockRules); diff != "" {
		t.Errorf("memlock rules (-want +got):\n%s", diff)
	}
	for name, want := range map[string]string{
		"vm.max_map_count": "65530", "net.core.rmem_max": "4194304", "kernel.numa_balancing": "0", "kernel.hostname": "compute4",
	} {
		if h.Sysctls[name] != want {
			t.Errorf("sysctl %s = %q, want %q", name, h.Sysctls[name], want)
		}
	}
	if ev := h.Evidence["sysctls.vm.max_map_count"]; ev.Source != "proc_sys" || ev.Path != "proc/sys/vm/max_map_count" || ev.Text != "65530" {
		t.Errorf("vm.max_map_count evidence %+v", ev)
	}
	var v6 []string
	for _, n := range s.Netdevs {
		if n.DisableIPv6 != nil && !*n.DisableIPv6 {
			v6 = append(v6, n.Name)
		}
	}
	if diff := cmp.Diff([]string{"eth0", "lo"}, v6); diff != "" {
		t.Errorf("netdevs with IPv6 enabled (-want +got):\n%s", diff)
	}
	var kinds []string
	for _, e := range h.KernelEvents {
		kinds = append(kinds, e.Kind)
	}
	if diff := cmp.Diff([]string{"other", "other", "other", "probe_failed", "probe_failed", "probe_failed"}, kinds); diff != "" {
		t.Errorf("kernel events (-want +got):\n%s", diff)
	}
	// The VM has no cpufreq driver: the cpu tree is there, the governors are not, and that is
	// reported as missing rather than as a healthy empty count.
	for _, src := range s.Sources {
		switch src.Name {
		case "sysfs_cpufreq":
			if src.Status != facts.StatusMissing || !strings.Contains(src.Error, "no scaling_governor files") {
				t.Errorf("cpufreq source %+v", src)
			}
		case "proc_sys":
			if src.Status != facts.StatusOK || src.Origin != "proc/sys" {
				t.Errorf("proc_sys source %+v", src)
			}
		}
	}
	if h.CPUFreqGovernors != nil {
		t.Errorf("governors %v", h.CPUFreqGovernors)
	}
}

func stamped(e facts.Evidence, source, path string) facts.Evidence {
	e.Source, e.Path = source, path
	return e
}

// fixtureLine is line n of a fixture as unstamped evidence.
func fixtureLine(t *testing.T, fixture string, n int) facts.Evidence {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(fixtures.Read(t, fixture)), "\n"), "\n")
	if n < 1 || n > len(lines) {
		t.Fatalf("%s has no line %d", fixture, n)
	}
	return facts.Evidence{Line: n, Text: lines[n-1]}
}

// addTree copies a directory of captured files into fsys at their paths relative to root.
func addTree(t *testing.T, fsys fstest.MapFS, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fsys[filepath.ToSlash(rel)] = &fstest.MapFile{Data: b}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
