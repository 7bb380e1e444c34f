package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func evMap(pairs ...any) facts.EvidenceMap {
	m := facts.EvidenceMap{}
	for i := 0; i < len(pairs); i += 2 {
		m[pairs[i].(string)] = pairs[i+1].(facts.Evidence)
	}
	return m
}

func TestModinfo(t *testing.T) {
	const dkms, missing = "modinfo/nv-peer-mem-dkms.txt", "modinfo/nv-peer-mem-not-found.txt"
	e := func(f string, n int) facts.Evidence { return fixtureEv(t, f, n) }
	for _, tc := range []struct {
		fixture string
		want    []facts.ModuleInfo
	}{
		// nv_peer_memory#46: installed by DKMS, while `lsmod | grep nv_peer` printed nothing.
		{dkms, []facts.ModuleInfo{{
			Name: "nv_peer_mem", Filename: "/lib/modules/4.15.0-46-generic/updates/dkms/nv_peer_mem.ko", Version: "1.0-8",
			Depends: []string{"ib_core"}, Vermagic: "4.15.0-46-generic SMP mod_unload",
			Evidence: evMap("filename", e(dkms, 1), "name", e(dkms, 9), "version", e(dkms, 2), "depends", e(dkms, 7), "vermagic", e(dkms, 10)),
		}}},
		// nv_peer_memory#51: the module is not installed for the running kernel.
		{missing, []facts.ModuleInfo{{Name: "nv_peer_mem", NotFound: true, Evidence: evMap("name", e(missing, 1), "not_found", e(missing, 1))}}},
	} {
		got, err := parse.Modinfo(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
	// Another tool's output is not modinfo's: each line is named, nothing is invented.
	got, err := parse.Modinfo(fixtures.Read(t, "modprobe/nv-peer-mem-unknown-symbol-v.txt"))
	if ps, ok := parse.AsProblems(err); !ok || len(ps) != 2 || len(got) != 0 {
		t.Errorf("modprobe output read as modinfo: %v, %+v", err, got)
	}
}

func TestModprobe(t *testing.T) {
	const v, inval = "modprobe/nv-peer-mem-unknown-symbol-v.txt", "modprobe/nvidia-peermem-invalid-argument.txt"
	e := func(f string, n int) facts.Evidence { return fixtureEv(t, f, n) }
	for _, tc := range []struct {
		fixture string
		want    []facts.ModprobeRun
	}{
		// nv_peer_memory#84: -v shows the file tried, then the loader's refusal.
		{v, []facts.ModprobeRun{{
			Module: "nv_peer_mem", Inserted: []string{"/lib/modules/3.10.0-1127.19.1.el7.x86_64/extra/nv_peer_mem.ko"},
			Error:    "Unknown symbol in module, or unknown parameter (see dmesg)",
			Evidence: evMap("inserted", e(v, 1), "error", e(v, 2)),
		}}},
		// gpu-operator#2868: nvidia_peermem against an ib_core without the peer-memory API.
		{inval, []facts.ModprobeRun{{Module: "nvidia_peermem", Error: "Invalid argument", Evidence: evMap("error", e(inval, 1))}}},
	} {
		got, err := parse.Modprobe(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
	got, err := parse.Modprobe(fixtures.Read(t, "modinfo/nv-peer-mem-dkms.txt"))
	if ps, ok := parse.AsProblems(err); !ok || len(ps) != 14 || len(got) != 0 {
		t.Errorf("modinfo output read as modprobe: %v, %+v", err, got)
	}
}

func TestIBStatusRefusal(t *testing.T) {
	const f = "ibstatus/sys-files-not-found.txt"
	want := &facts.ToolRefusal{Message: "Fatal error:  device '*': sys files not found (/sys/class/infiniband/*/ports)", Evidence: fixtureEv(t, f, 1)}
	if diff := cmp.Diff(want, parse.IBStatusRefusal(fixtures.Read(t, f))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if r := parse.IBStatusRefusal(fixtures.Read(t, "ibstatus/roce-ndr.txt")); r != nil {
		t.Errorf("a port list read as a refusal: %+v", r)
	}
}

// Kernel log lines of the causes issue 11 names: a flapping RoCE netdev (journal format), a
// module plugged then one Link up per port, the kernel asking for newer firmware, and
// GPUDirect's peer-memory module refused by the module loader.
func TestDmesgStackEvents(t *testing.T) {
	const (
		flap    = "dmesg/mlx5-eth1-link-up-repeated-journal.txt"
		plugged = "dmesg/mlx5-module-plugged-link-up.txt"
		lso     = "dmesg/mlx4-en-lso-upgrade-fw.txt"
		peermem = "dmesg/nvidia-peermem-unknown-symbol-T.txt"
		nvpeer  = "dmesg/nv-peer-mem-unknown-symbol-T.txt"
	)
	e := func(f string, n int) facts.Evidence { return fixtureEv(t, f, n) }
	ke := func(f string, n int, kind, drv, pci, nd string) facts.KernelEvent {
		return facts.KernelEvent{Kind: kind, Driver: drv, PCIAddress: pci, Netdev: nd, Evidence: e(f, n)}
	}
	sym := func(f string, n int, drv, s string) facts.KernelEvent {
		return facts.KernelEvent{Kind: facts.EventUnknownSymbol, Driver: drv, Symbol: s, Evidence: e(f, n)}
	}
	const reg, unreg = "ib_register_peer_memory_client", "ib_unregister_peer_memory_client"
	for _, tc := range []struct {
		fixture string
		want    []facts.KernelEvent
	}{
		// cubecos#733: four Link up of eth1 in 45 s; the 8021q lines are not the RDMA stack's.
		{flap, []facts.KernelEvent{
			ke(flap, 1, facts.EventLinkUp, "mlx5_core", "0000:01:00.1", "eth1"),
			ke(flap, 3, facts.EventLinkUp, "mlx5_core", "0000:01:00.1", "eth1"),
			ke(flap, 5, facts.EventLinkUp, "mlx5_core", "0000:01:00.1", "eth1"),
			ke(flap, 7, facts.EventLinkUp, "mlx5_core", "0000:01:00.1", "eth1"),
		}},
		{plugged, []facts.KernelEvent{
			ke(plugged, 1, facts.EventOther, "mlx5_core", "0000:01:00.0", ""),
			ke(plugged, 2, facts.EventOther, "mlx5_core", "0000:01:00.1", ""),
			ke(plugged, 3, facts.EventLinkUp, "mlx5_core", "0000:01:00.0", "enp1s0f0"),
			ke(plugged, 5, facts.EventLinkUp, "mlx5_core", "0000:01:00.1", "enp1s0f1"),
		}},
		// trinity#219: mlx4_en asks for later firmware on the node whose ibstatus finds no device.
		{lso, []facts.KernelEvent{
			ke(lso, 1, facts.EventOther, "mlx4_en", "", ""),
			ke(lso, 2, facts.EventFirmwareUpgrade, "mlx4_en", "0000:0d:00.0", ""),
			ke(lso, 3, facts.EventOther, "mlx4_en", "0000:0d:00.0", ""),
			ke(lso, 4, facts.EventOther, "mlx4_ib", "", ""),
		}},
		{peermem, []facts.KernelEvent{
			sym(peermem, 1, "nvidia_peermem", reg), sym(peermem, 2, "nvidia_peermem", reg),
			sym(peermem, 3, "nvidia_peermem", unreg), sym(peermem, 4, "nvidia_peermem", unreg),
			sym(peermem, 5, "nvidia_peermem", reg), sym(peermem, 6, "nvidia_peermem", reg),
			sym(peermem, 7, "nvidia_peermem", unreg), sym(peermem, 8, "nvidia_peermem", unreg),
		}},
		{nvpeer, []facts.KernelEvent{
			sym(nvpeer, 1, "nv_peer_mem", reg), sym(nvpeer, 2, "nv_peer_mem", unreg),
			sym(nvpeer, 3, "nv_peer_mem", reg), sym(nvpeer, 4, "nv_peer_mem", unreg),
		}},
	} {
		got, err := parse.Dmesg(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}
