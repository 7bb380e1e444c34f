package summary_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/facts/summary"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// corpus builds the snapshot of a fixtures/corpus case (by its number) the way diagnose reads it.
func corpus(t *testing.T, prefix string) *facts.Snapshot {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(fixtures.CorpusDir(t), prefix+"-*"))
	if len(m) != 1 {
		t.Fatalf("corpus case %s: %d folders", prefix, len(m))
	}
	fsys, info, err := source.Open(m[0])
	if err != nil {
		t.Fatal(err)
	}
	s, err := build.Snapshot(fsys, info)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func device(t *testing.T, n facts.NodeSummary, name, pci string) facts.SummaryDevice {
	t.Helper()
	for _, d := range n.Devices {
		if d.Name == name && (pci == "" || d.PCIAddress == pci) {
			return d
		}
	}
	t.Fatalf("%s: no device %q %q in %+v", n.Host, name, pci, n.Devices)
	return facts.SummaryDevice{}
}

func ptr[T any](v T) *T { return &v }

// 005: an H100 node's sysfs tree: eight ConnectX-7 (PSID MT_0000000838) at 400 Gb/s NDR, with
// their error counters, and a BlueField-3 bond.
func TestSummarizeSysfsTree(t *testing.T) {
	n := summary.Summarize(corpus(t, "005"), "node05")
	if n.Host != "node05" || len(n.Devices) != 9 {
		t.Fatalf("host %q, %d devices", n.Host, len(n.Devices))
	}
	d := device(t, n, "mlx5_0", "")
	fw := facts.Evidence{Source: "sysfs_infiniband", Path: "sys/class/infiniband/mlx5_0/fw_ver", Text: "28.41.1000"}
	if d.CAType != "MT4129" || d.PSID != "MT_0000000838" || d.Firmware != "28.41.1000" || d.Evidence["firmware"] != fw {
		t.Errorf("mlx5_0: %+v", d)
	}
	want := facts.SummaryPort{Number: 1, State: "Active", PhysicalState: "LinkUp", RateGbps: ptr(400.0), WidthLanes: ptr(4),
		LaneSpeed: "NDR", LinkLayer: "InfiniBand", Counters: map[string]int64{
			"excessive_buffer_overrun_errors": 15, "link_downed": 0, "link_error_recovery": 0, "local_link_integrity_errors": 0,
			"port_rcv_errors": 14, "port_xmit_discards": 0, "symbol_error": 0,
		}}
	got := d.Ports[0]
	ev := got.Evidence
	got.Evidence = nil
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mlx5_0 port 1 (-want +got):\n%s", diff)
	}
	if e := ev["counters.port_rcv_errors"]; e.Path != "sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_errors" || e.Text != "14" {
		t.Errorf("port_rcv_errors evidence %+v", e)
	}
	if _, ok := ev["rate_gbps"]; !ok {
		t.Errorf("no rate evidence: %v", ev)
	}
	// not in the snapshot: absent, never zero
	if n.Kernel != "" || n.Memlock != nil || len(n.IPoIB) != 0 || len(n.Drivers) != 0 || n.Sysctls != nil || d.IRQ != nil || d.LinkTypes != nil {
		t.Errorf("facts the snapshot lacks are present: %+v", n)
	}
}

// 112: an IB SR-IOV node; ethtool -i of ib1 names the PSID and the MLNX_OFED driver version,
// and ibdev2netdev joins ib1 to mlx5_6, so the PSID is mlx5_6's (the join is the snapshot's).
func TestSummarizeEthtoolDriverAndIPoIB(t *testing.T) {
	n := summary.Summarize(corpus(t, "112"), "node12")
	d := device(t, n, "mlx5_6", "")
	if d.PSID != "MT_0000000226" || d.PCIAddress != "0000:b1:00.1" || d.Evidence["psid"].Text != "firmware-version: 20.30.1004 (MT_0000000226)" {
		t.Errorf("mlx5_6: %+v", d)
	}
	if d := device(t, n, "mlx5_5", ""); d.PSID != "" {
		t.Errorf("mlx5_5 took a PSID no source joins to it: %q", d.PSID)
	}
	wantDrv := []facts.SummaryDriver{{Name: "mlx5_core[ib_ipoib]", Version: "4.9-5.1.0",
		Evidence: facts.Evidence{Source: "ethtool_driver", Path: "ethtool_-i_ib1", Line: 2, Text: "version: 4.9-5.1.0"}}}
	if diff := cmp.Diff(wantDrv, n.Drivers); diff != "" {
		t.Errorf("drivers (-want +got):\n%s", diff)
	}
	if len(n.IPoIB) != 2 || n.IPoIB[0].Name != "ib0" || n.IPoIB[0].MTU == nil || *n.IPoIB[0].MTU != 4092 || n.IPoIB[0].Device != "mlx5_5" ||
		n.IPoIB[0].Evidence["mtu"].Line != 1 || n.IPoIB[1].MTU != nil {
		t.Errorf("ipoib: %+v", n.IPoIB)
	}
	lt := device(t, n, "", "0000:b1:00.0")
	if diff := cmp.Diff(map[string]string{"LINK_TYPE_P1": "IB(1)"}, lt.LinkTypes); diff != "" {
		t.Errorf("LINK_TYPE (-want +got):\n%s", diff)
	}
}

// 034: mlxconfig query of a ConnectX-3 Pro behind /dev/mst (mst status gives the PCI address):
// both ports configured ETH.
func TestSummarizeLinkType(t *testing.T) {
	n := summary.Summarize(corpus(t, "034"), "node34")
	d := device(t, n, "", "0000:04:00.0")
	if diff := cmp.Diff(map[string]string{"LINK_TYPE_P1": "ETH(2)", "LINK_TYPE_P2": "ETH(2)"}, d.LinkTypes); diff != "" {
		t.Errorf("LINK_TYPE (-want +got):\n%s", diff)
	}
	if e := d.Evidence["link_types.LINK_TYPE_P2"]; e.Line != 15 || e.Path != "mlxconfig_-d_.dev.mst.mt4103_pci_cr0_query" {
		t.Errorf("LINK_TYPE_P2 evidence %+v", e)
	}
	if d.DeviceType != "ConnectX3Pro" {
		t.Errorf("device type %q", d.DeviceType)
	}
}

// 042: /proc/interrupts of a Ryzen node (grep mlx): 13 vectors of 0000:01:00.0 on 12 CPUs.
func TestSummarizeIRQSpread(t *testing.T) {
	n := summary.Summarize(corpus(t, "042"), "node42")
	d := device(t, n, "", "0000:01:00.0")
	if d.IRQ == nil || d.IRQ.IRQs != 13 || d.IRQ.InterruptedCPUs != 12 || d.IRQ.AffinityCPUs != nil || d.IRQ.Evidence.Line != 1 {
		t.Errorf("irq spread %+v", d.IRQ)
	}
}

// 126: UCX's own message gives the memlock limit, 64 KiB.
func TestSummarizeMemlock(t *testing.T) {
	n := summary.Summarize(corpus(t, "126"), "node26")
	if n.Memlock == nil || n.Memlock.SoftKiB == nil || *n.Memlock.SoftKiB != 64 || n.Memlock.Evidence.Line != 6 {
		t.Errorf("memlock %+v", n.Memlock)
	}
}

// Summarize shares nothing a caller could change through the snapshot.
func TestSummarizeCopies(t *testing.T) {
	s := corpus(t, "005")
	n := summary.Summarize(s, "node05")
	*s.Devices[0].Ports[0].RateGbps = 1
	s.Available[0] = "changed"
	if *n.Devices[0].Ports[0].RateGbps != 400 || n.Available[0] == "changed" {
		t.Error("the summary shares the snapshot's values")
	}
}
