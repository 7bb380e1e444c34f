package parse_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestDmesg(t *testing.T) {
	const (
		power   = "dmesg/cx6-x4-slot-insufficient-power.txt"
		probe   = "dmesg/mlx5-probe-fails-handle-hca-cap.txt"
		cable   = "dmesg/mlx4-cable-not-connected-truncated.txt"
		hotplug = "dmesg/cx7-hotplug-link-up.txt"
		qp      = "dmesg/create-qp-failed-T.txt"
		segv    = "dmesg/rdma-cm-segfault.txt"
		steer   = "dmesg/mlx4-en-steering.txt"
		mlx4    = "dmesg/mlx4-en-ports.txt"
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
	// GPUDirect's peer-memory module refused by the module loader.
	sym := func(f string, n int, drv, s string) facts.KernelEvent {
		return facts.KernelEvent{Kind: facts.EventUnknownSymbol, Driver: drv, Symbol: s, Evidence: e(f, n)}
	}
	const reg, unreg = "ib_register_peer_memory_client", "ib_unregister_peer_memory_client"
	const pci7, pci16 = "0000:04:00.0", "0000:03:00.0"
	for _, tc := range []struct {
		fixture string
		want    []facts.KernelEvent
	}{
		// Case 007: Gen1 x4 slot and a 25 W slot power budget.
		{power, []facts.KernelEvent{
			ke(power, 1, facts.EventOther, "mlx5_core", pci7, ""),
			ke(power, 2, facts.EventOther, "mlx5_core", pci7, ""),
			ke(power, 3, facts.EventPCIeLimited, "mlx5_core", pci7, ""),
			ke(power, 4, facts.EventOther, "mlx5_core", pci7, ""),
			ke(power, 5, facts.EventOther, "mlx5_core", pci7, ""),
			ke(power, 6, facts.EventOther, "mlx5_core", pci7, ""),
			ke(power, 7, facts.EventInsufficientPower, "mlx5_core", pci7, ""),
			ke(power, 8, facts.EventOther, "mlx5_core", pci7, ""),
			ke(power, 9, facts.EventOther, "mlx5_core", pci7, "eth0"),
			ke(power, 10, facts.EventOther, "mlx5_core", pci7, "enp4s0np0"),
			ke(power, 11, facts.EventLinkDown, "mlx5_core", pci7, "enp4s0np0"),
		}},
		// Case 116: the probe fails in handle_hca_cap; the log_max_qp line before it is not the failure.
		{probe, []facts.KernelEvent{
			ke(probe, 1, facts.EventOther, "mlx5_core", pci16, ""),
			ke(probe, 2, facts.EventOther, "mlx5_core", pci16, ""),
			ke(probe, 3, facts.EventOther, "mlx5_core", pci16, ""),
			ke(probe, 4, facts.EventProbeFailed, "mlx5_core", pci16, ""),
			ke(probe, 5, facts.EventProbeFailed, "mlx5_core", pci16, ""),
			ke(probe, 6, facts.EventProbeFailed, "mlx5_core", pci16, ""),
		}},
		// Case 115: the line is cut short in the source ("cable is not con").
		{cable, []facts.KernelEvent{ke(cable, 1, facts.EventCableNotConnected, "mlx4_core", "0000:04:00.0", "")}},
		// Case 027: no timestamps; the hot-plug platform driver's line is not the RDMA stack's.
		{hotplug, []facts.KernelEvent{
			ke(hotplug, 2, facts.EventOther, "mlx5_core", "0000:01:00.0", ""),
			ke(hotplug, 3, facts.EventLinkUp, "mlx5_core", "0000:01:00.0", "enp1s0f0np0"),
		}},
		// Case 126: dmesg -T timestamps; the RDMA device is named, not a PCI address.
		{qp, []facts.KernelEvent{
			{Kind: facts.EventOther, Driver: "infiniband", RDMADevice: "mlx5_0", Evidence: e(qp, 1)},
			{Kind: facts.EventOther, Driver: "infiniband", RDMADevice: "mlx5_0", Evidence: e(qp, 2)},
			{Kind: facts.EventOther, Driver: "infiniband", RDMADevice: "mlx5_0", Evidence: e(qp, 3)},
		}},
		// Case 015: a user-space crash inside librdmacm.
		{segv, []facts.KernelEvent{{Kind: facts.EventOther, Evidence: e(segv, 1)}}},
		{steer, []facts.KernelEvent{
			ke(steer, 1, facts.EventOther, "mlx4_en", "", "eth1"),
			ke(steer, 2, facts.EventOther, "mlx4_en", "", "eth1"),
			ke(steer, 3, facts.EventOther, "mlx4_en", "", "eth2"),
			ke(steer, 4, facts.EventOther, "mlx4_en", "", "eth2"),
		}},
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

	// Case 105: mlx4 port bring-up; the link flaps once on eth1.
	got, err := parse.Dmesg(fixtures.Read(t, mlx4))
	if err != nil || len(got) != 19 {
		t.Fatalf("%s: %d events, %v", mlx4, len(got), err)
	}
	wantTail := []facts.KernelEvent{
		ke(mlx4, 16, facts.EventLinkUp, "mlx4_en", "", "eth1"),
		ke(mlx4, 17, facts.EventLinkUp, "mlx4_en", "", "eth2"),
		ke(mlx4, 18, facts.EventLinkDown, "mlx4_en", "", "eth1"),
		ke(mlx4, 19, facts.EventLinkUp, "mlx4_en", "", "eth1"),
	}
	if diff := cmp.Diff(wantTail, got[15:]); diff != "" {
		t.Errorf("%s (-want +got):\n%s", mlx4, diff)
	}
	if first := got[0]; first.Driver != "mlx4_ib" || first.Netdev != "" {
		t.Errorf("%s: first event %+v", mlx4, first)
	}
}

// TestDmesgDamagedRDMALines: corpus 115's mlx4 line with a word in its PCI address, or with a
// byte that is not UTF-8, is named as damaged; a Latin-1 BIOS name elsewhere is not.
func TestDmesgDamagedRDMALines(t *testing.T) {
	line := "mlx4_core 0000:04:00.0: MLX4_CMD_MAD_IFC Get Module info attr(ff60) port(1) i2c_addr(50) offset(0) size(2): Response Mad Status(31c) - cable is not con\n"
	for _, bad := range []string{strings.Replace(line, "0000:04", "0000:fifty", 1), strings.Replace(line, "Module", "Mod\xe9ule", 1)} {
		log, err := parse.ReadDmesg(strings.NewReader(bad))
		if err != nil || len(log.Damaged) != 1 || log.Damaged[0].N != 1 {
			t.Errorf("%q: damaged %v, err %v", bad, log.Damaged, err)
		}
	}
	if log, _ := parse.ReadDmesg(strings.NewReader(line + "[    0.000000] DMI: Soci\xe9t\xe9 G\xe9n\xe9rale/X11, BIOS 1.0\n")); len(log.Damaged) != 0 {
		t.Errorf("undamaged log: %v", log.Damaged)
	}
}
