package build

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// The inputs of the kernel and driver stack checks, saved the ways tickets name them: each is
// read, and a file taken as one of them that yields nothing says so.
func TestStackInputs(t *testing.T) {
	s, err := Snapshot(fixtures.Files(t, map[string]string{
		"lsmod_grep_nv_peer":           "lsmod/grep-nv-peer-empty.txt",
		"modinfo_nv_peer_mem":          "modinfo/nv-peer-mem-dkms.txt",
		"modprobe_-v_nv_peer_mem":      "modprobe/nv-peer-mem-unknown-symbol-v.txt",
		"peermem_container.log":        "modprobe/nvidia-peermem-invalid-argument.txt", // by content
		"ibstatus":                     "ibstatus/sys-files-not-found.txt",
		"journalctl_-k":                "dmesg/mlx5-eth1-link-up-repeated-journal.txt",
		"sos_commands/kernel/dmesg":    "dmesg/nvidia-peermem-unknown-symbol-T.txt",
		"dmesg_after_reboot":           "limits/linux-pam-default-limits.conf", // not a kernel log
		"kern_excerpt_dmesg_plugged":   "dmesg/mlx5-module-plugged-link-up.txt",
		"lsmod":                        "limits/rudd-o-recordingstudio-limits.conf",
		"lsmod_grep_nvidia":            "modprobe/nvidia-peermem-invalid-argument.txt", // read as modprobe
		"modinfo_ALL_MODULES_notfound": "modinfo/nv-peer-mem-not-found.txt",
	}), facts.SourceInfo{})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Host
	// `lsmod | grep nv_peer` printed nothing: an empty list under its filter, not "not captured".
	if h.Modules == nil || len(h.Modules) != 0 || h.ModulesFilter != "nv_peer" || h.Evidence["modules"].Path != "lsmod_grep_nv_peer" {
		t.Errorf("empty filtered lsmod: modules %v filter %q evidence %+v", h.Modules, h.ModulesFilter, h.Evidence["modules"])
	}
	if src := sourceOf(t, s, "lsmod_grep_nv_peer"); src.Status != facts.StatusOK || !strings.Contains(src.Note, `no module line has "nv_peer"`) {
		t.Errorf("empty filtered lsmod source %+v", src)
	}
	infos := map[string]facts.ModuleInfo{}
	for _, mi := range h.ModuleInfo {
		infos[mi.Evidence["name"].Path] = mi
	}
	if len(h.ModuleInfo) != 2 || infos["modinfo_nv_peer_mem"].Filename == "" || !infos["modinfo_ALL_MODULES_notfound"].NotFound {
		t.Errorf("modinfo %+v", h.ModuleInfo)
	}
	runs := map[string]facts.ModprobeRun{}
	for _, r := range h.Modprobe {
		runs[r.Evidence["error"].Path] = r
	}
	if len(h.Modprobe) != 3 || runs["modprobe_-v_nv_peer_mem"].Module != "nv_peer_mem" || runs["peermem_container.log"].Error != "Invalid argument" {
		t.Errorf("modprobe %+v", h.Modprobe)
	}
	if src := sourceOf(t, s, "ibstatus"); src.Status != facts.StatusUnsupported || !strings.Contains(src.Error, "sys files not found") {
		t.Errorf("ibstatus refusal source %+v", src)
	}
	var refusal bool
	for _, u := range h.Userspace {
		refusal = refusal || u.Tool == "ibstatus" && u.Evidence.Line == 1 && u.Evidence.Path == "ibstatus"
	}
	if !refusal {
		t.Errorf("ibstatus refusal not kept: %+v", h.Userspace)
	}
	kinds := map[string]int{}
	for _, ev := range h.KernelEvents {
		kinds[ev.Kind+" "+ev.Evidence.Path]++
	}
	if kinds["link_up journalctl_-k"] != 4 || kinds["unknown_symbol sos_commands/kernel/dmesg"] != 8 {
		t.Errorf("kernel events %v", kinds)
	}
	// A limits.conf saved as dmesg is not a kernel log: partial, with the reason.
	if src := sourceOf(t, s, "dmesg_after_reboot"); src.Status != facts.StatusPartial || !strings.Contains(src.Error, "not a kernel log") {
		t.Errorf("non-log saved as dmesg: %+v", src)
	}
	// A limits.conf saved as lsmod is nobody's lsmod.
	if src := sourceOf(t, s, "lsmod"); src.Status == facts.StatusOK {
		t.Errorf("modprobe output saved as lsmod read ok: %+v", src)
	}
	if src := sourceOf(t, s, "modinfo_ALL_MODULES_notfound"); src.Status != facts.StatusOK || src.Name != "modinfo" {
		t.Errorf("modinfo refusal source %+v", src)
	}
}

// A kernel log with no line of the RDMA stack is read, and its note says so.
func TestDmesgWithoutRDMALines(t *testing.T) {
	s, err := Snapshot(fixtures.Files(t, map[string]string{"dmesg": "dmesg/openwrt-mt7530-lan2-flaps.txt", "dmesg_rdma": "dmesg/mlx4-en-steering.txt"}), facts.SourceInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if src := sourceOf(t, s, "dmesg"); src.Status != facts.StatusOK || !strings.Contains(src.Note, "a kernel log of 12 lines, none from the RDMA stack") {
		t.Errorf("log without RDMA lines: %+v", src)
	}
	if src := sourceOf(t, s, "dmesg_rdma"); src.Status != facts.StatusOK || src.Note != "" {
		t.Errorf("RDMA log: %+v", src)
	}
}

// A kernel log that ends mid-line was cut: what the kernel logged next is lost, so the source is
// partial and names the line; the events read before are kept.
func TestDmesgCutMidLine(t *testing.T) {
	b := fixtures.Read(t, "dmesg/mlx5-probe-fails-handle-hca-cap.txt")
	cut := b[:bytes.Index(b, []byte("mlx5_load_one"))+5]
	s, err := Snapshot(fstest.MapFS{"dmesg": {Data: cut}}, facts.SourceInfo{})
	if err != nil {
		t.Fatal(err)
	}
	src := sourceOf(t, s, "dmesg")
	if src.Status != facts.StatusPartial || len(src.Problems) != 1 || src.Problems[0].Line != 5 || !strings.Contains(src.Error, "cut here") {
		t.Errorf("cut log: %+v", src)
	}
	if n := len(s.Host.KernelEvents); n != 5 {
		t.Errorf("%d events kept, want 5", n)
	}
}

// TestLsmodExcerptUnderAnyName: a `lsmod | grep` paste has no header; under a name that says
// no grep (output.txt, or plain "lsmod") it is still an excerpt, by a filter nobody recorded,
// so no module's absence follows from it. The whole lsmod, header first, has no filter.
func TestLsmodExcerptUnderAnyName(t *testing.T) {
	for _, tc := range []struct{ name, fixture, filter string }{
		{"output.txt", "lsmod/pve-grep-mlx-no-mlx5.txt", facts.ModulesFilterUnknown},
		{"lsmod", "lsmod/rhel8-grep-ipoib.txt", facts.ModulesFilterUnknown},
		{"lsmod_grep_mlx", "lsmod/pve-grep-mlx-no-mlx5.txt", "mlx"},
		{"paste.log", "lsmod/hotsos-openstack-full.txt", ""},
	} {
		s, err := Snapshot(fixtures.Files(t, map[string]string{tc.name: tc.fixture}), facts.SourceInfo{})
		if err != nil {
			t.Fatal(err)
		}
		if src := sourceOf(t, s, tc.name); src.Name != "lsmod" || src.Status != facts.StatusOK {
			t.Errorf("%s (%s): source %+v, want read as lsmod", tc.name, tc.fixture, src)
		}
		if len(s.Host.Modules) == 0 || s.Host.ModulesFilter != tc.filter {
			t.Errorf("%s (%s): %d modules, filter %q; want filter %q", tc.name, tc.fixture, len(s.Host.Modules), s.Host.ModulesFilter, tc.filter)
		}
	}
	// A table of a name and two numbers that names no RDMA module is not taken for lsmod.
	if lsmodExcerpt([]byte("eth0 1500 0\nlo 65536 0\n")) {
		t.Error("a non-RDMA table taken for an lsmod excerpt")
	}
}
