package build_test

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// corpusDir finds a corpus case folder by its number (fixtures.CorpusDir says what happens without the corpus).
func corpusDir(t *testing.T, num string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(fixtures.CorpusDir(t), num+"-*"))
	if len(m) != 1 {
		t.Fatalf("corpus case %s: %d folders", num, len(m))
	}
	return m[0]
}

func snapshotOf(t *testing.T, fsys fstest.MapFS) *facts.Snapshot {
	t.Helper()
	s, err := build.Snapshot(fsys, facts.SourceInfo{Kind: "captures"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// dirFS copies the files of a corpus folder whose names start with one of prefixes (so the test
// does not depend on other helpers' parsers).
func dirFS(t *testing.T, dir string, prefixes ...string) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		for _, p := range prefixes {
			if !e.IsDir() && len(e.Name()) >= len(p) && e.Name()[:len(p)] == p {
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				fsys[e.Name()] = &fstest.MapFile{Data: b}
			}
		}
	}
	return fsys
}

var ignoreEvidence = cmp.Options{
	cmpopts.IgnoreFields(facts.Netdev{}, "Evidence"),
	cmpopts.IgnoreFields(facts.Module{}, "Evidence"),
	cmpopts.IgnoreFields(facts.PCIFunction{}, "Evidence"),
	cmpopts.IgnoreFields(facts.IRQ{}, "Evidence"),
	cmpopts.EquateEmpty(),
}

func ptr[T any](v T) *T { return &v }

func TestBuildLSPCIGrepExcerpts(t *testing.T) {
	// 007: "lspci -s 01:00.0 -vvv | grep Width" names its function; 105: three labelled greps
	// without -s are kept on placeholders.
	s := snapshotOf(t, dirFS(t, corpusDir(t, "007"), "lspci"))
	want := []facts.PCIFunction{{Address: "0000:01:00.0", Filter: "Width",
		LnkCap: &facts.PCIeLink{SpeedGTs: ptr(8.0), Width: ptr(4), BandwidthGbps: ptr(31.504)},
		LnkSta: &facts.PCIeLink{SpeedGTs: ptr(8.0), Width: ptr(4), BandwidthGbps: ptr(31.504)}}}
	if diff := cmp.Diff(want, s.PCI, ignoreEvidence); diff != "" {
		t.Errorf("007 (-want +got):\n%s", diff)
	}
	if ev := s.PCI[0].Evidence["lnksta"]; ev.Source != "lspci" || ev.Path != "lspci_-s_01.00.0_-vvv_grep_Width" || ev.Line != 2 {
		t.Errorf("007 evidence %+v", ev)
	}

	s = snapshotOf(t, dirFS(t, corpusDir(t, "105"), "lspci"))
	want = []facts.PCIFunction{
		{Address: "unknown:node01_x86", VendorID: "15b3", Filter: "LnkSta", LnkSta: &facts.PCIeLink{SpeedGTs: ptr(5.0), Width: ptr(8), BandwidthGbps: ptr(32.0)}},
		{Address: "unknown:node02_x86", VendorID: "15b3", Filter: "LnkSta", LnkSta: &facts.PCIeLink{SpeedGTs: ptr(5.0), Width: ptr(8), BandwidthGbps: ptr(32.0)}},
		{Address: "unknown:node03_aarch64", VendorID: "15b3", Filter: "LnkSta", LnkSta: &facts.PCIeLink{SpeedGTs: ptr(5.0), Width: ptr(1), WidthDowngraded: true, BandwidthGbps: ptr(4.0)}},
	}
	if diff := cmp.Diff(want, s.PCI, ignoreEvidence); diff != "" {
		t.Errorf("105 (-want +got):\n%s", diff)
	}

	if src := originOf(s, "lspci_-vvv_-d_15b3_grep_LnkSta__node03_aarch64"); src.Status != facts.StatusOK ||
		src.Note != "1 group(s) of link lines without a PCI address (the capture names no function: no header, no -s in the file name), kept as unknown:node03_aarch64" {
		t.Errorf("105 source %+v", src)
	}

	// 101: the header of `lspci -v -s 81:00.0` and the LnkSta grep of the same slot merge.
	s = snapshotOf(t, dirFS(t, corpusDir(t, "101"), "lspci"))
	want = []facts.PCIFunction{{Address: "0000:81:00.0", Class: "Network controller",
		Name: "Mellanox Technologies MT27500 Family [ConnectX-3]", VF: ptr(false), NUMANode: ptr(1), CapabilitiesDenied: ptr(true),
		KernelDriver: "mlx4_core", LnkSta: &facts.PCIeLink{SpeedGTs: ptr(8.0), Width: ptr(8), BandwidthGbps: ptr(63.008)}}}
	if diff := cmp.Diff(want, s.PCI, ignoreEvidence); diff != "" {
		t.Errorf("101 (-want +got):\n%s", diff)
	}
}

func TestBuildEthtoolModuleCaptures(t *testing.T) {
	// 055: four module dumps; the two of swp13 come from different hosts and stay apart.
	s := snapshotOf(t, dirFS(t, corpusDir(t, "055"), "ethtool"))
	type row struct {
		Name, Capture, Identifier, VendorPN string
		MaxSpeedGbps                        *int
		LengthM                             *float64
	}
	var got []row
	for _, n := range s.Netdevs {
		got = append(got, row{n.Name, n.Capture, n.Module.Identifier, n.Module.VendorPN, n.Module.MaxSpeedGbps, n.Module.LengthM})
	}
	want := []row{
		{"swp13", "", "QSFP+", "MCP1600-E00A", ptr(100), ptr(1.0)},
		{"swp13", "sn-host-b", "QSFP+", "FTL410QE2C", ptr(40), ptr(100.0)},
		{"swp14", "", "QSFP28", "MMA1B00-C100D", ptr(100), ptr(70.0)},
		{"swp4", "", "QSFP28", "LTA8531-PC+", ptr(100), ptr(70.0)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, src := range s.Sources {
		if src.Name == "ethtool_module" && src.Status != facts.StatusOK {
			t.Errorf("source %+v", src)
		}
	}

	// 115: the EEPROM read fails: the module is unreadable and the source unsupported.
	s = snapshotOf(t, dirFS(t, corpusDir(t, "115"), "ethtool"))
	if len(s.Netdevs) != 1 || s.Netdevs[0].Module.Unreadable != "Input/output error" {
		t.Fatalf("netdevs %+v", s.Netdevs)
	}
	for _, src := range s.Sources {
		if src.Name == "ethtool_module" && src.Status != facts.StatusUnsupported {
			t.Errorf("source %+v", src)
		}
	}
}

func TestBuildEthtoolIPoIB(t *testing.T) {
	// 112: ethtool -i of an mlx5 IPoIB netdev and ip addr of another; 125: two captures of ib0.
	s := snapshotOf(t, dirFS(t, corpusDir(t, "112"), "ethtool", "ip_"))
	want := []facts.Netdev{
		{Name: "ib0", Kind: "ipoib", MTU: ptr(4092), OperState: "DOWN", AdminUp: ptr(true), Carrier: ptr(false),
			Flags: []string{"NO-CARRIER", "BROADCAST", "MULTICAST", "UP"}, LinkAddress: "20:00:10:29:fe:80:00:00:00:00:00:00:08:c0:eb:03:00:ea:50:e6",
			IPv4: []string{"172.16.242.47/24"}},
		{Name: "ib1", Kind: "ipoib", Driver: "mlx5_core[ib_ipoib]", DriverVersion: "4.9-5.1.0", FirmwareVersion: "20.30.1004",
			FirmwarePSID: "MT_0000000226", BusInfo: "0000:b1:00.1", PCIAddress: "0000:b1:00.1"},
	}
	if diff := cmp.Diff(want, s.Netdevs, ignoreEvidence); diff != "" {
		t.Errorf("112 (-want +got):\n%s", diff)
	}

	s = snapshotOf(t, dirFS(t, corpusDir(t, "125"), "ethtool"))
	want = []facts.Netdev{
		{Name: "ib0", Kind: "ipoib", Duplex: "Full", PortType: "Other", LinkDetected: ptr(false)},
		{Name: "ib0", Capture: "before_fix", LinkDetected: ptr(false), EthtoolRefusal: "netlink error: failed to retrieve link settings: Invalid argument"},
	}
	if diff := cmp.Diff(want, s.Netdevs, ignoreEvidence, cmpopts.SortSlices(func(a, b facts.Netdev) bool { return a.Capture < b.Capture })); diff != "" {
		t.Errorf("125 (-want +got):\n%s", diff)
	}
}

func TestBuildInterruptsAndAffinity(t *testing.T) {
	fsys := dirFS(t, corpusDir(t, "042"), "proc_interrupts")
	for k, v := range fixtures.FS(t, "proc_irq/ryzen-mlx5-affinity.txtar") {
		fsys[k] = v
	}
	s := snapshotOf(t, fsys)
	if len(s.IRQs) != 15 {
		t.Fatalf("%d IRQs, want 15", len(s.IRQs))
	}
	want := []facts.IRQ{
		{Number: 99, Name: "mlx5_comp0@pci:0000:01:00.0", Kind: "comp", PCIAddress: "0000:01:00.0", Total: 4684,
			PerCPU: []int64{324, 0, 0, 0, 0, 0, 0, 4360, 0, 0, 0, 0}, SMPAffinityList: "7", SMPAffinity: []int{7}},
		{Number: 109, Name: "mlx5_comp1@pci:0000:01:00.0", Kind: "comp", PCIAddress: "0000:01:00.0", Total: 395220,
			PerCPU: []int64{0, 2, 0, 0, 0, 0, 0, 0, 395218, 0, 0, 0}, SMPAffinityList: "8", SMPAffinity: []int{8},
			EffectiveAffinityList: "8", EffectiveAffinity: []int{8}},
	}
	if diff := cmp.Diff(want, []facts.IRQ{s.IRQs[1], s.IRQs[4]}, ignoreEvidence); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if ev := s.IRQs[1].Evidence["smp_affinity_list"]; ev.Path != "proc/irq/99/smp_affinity_list" || ev.Source != "proc_irq" {
		t.Errorf("evidence %+v", ev)
	}
}

func TestBuildSysfsNet(t *testing.T) {
	s := snapshotOf(t, fixtures.FS(t, "sysfs_net/ipoib-and-roce.txtar"))
	want := []facts.Netdev{
		{Name: "eth2", Kind: "ethernet", MTU: ptr(1500), NUMANode: ptr(-1), LocalCPUList: "0-3", LocalCPUs: []int{0, 1, 2, 3},
			ECN: &facts.ECNState{RPEnabled: map[string]bool{"3": false}}},
		{Name: "ib0", Kind: "ipoib", IPoIBMode: "datagram", MTU: ptr(4092), OperState: "DOWN", Carrier: ptr(false),
			LinkAddress: "20:00:10:29:fe:80:00:00:00:00:00:00:08:c0:eb:03:00:ea:50:e6"},
	}
	if diff := cmp.Diff(want, s.Netdevs, ignoreEvidence); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if ev := s.Netdevs[1].Evidence["mtu"]; ev != (facts.Evidence{Source: "sysfs_net", Path: "sys/class/net/ib0/mtu", Text: "4092"}) {
		t.Errorf("evidence %+v", ev)
	}
	// The malformed carrier of eth2 is one error; the rest of eth2 was still read.
	var errs []string
	for _, src := range s.Sources {
		if src.Name == "sysfs_net" && src.Status == facts.StatusError {
			errs = append(errs, src.Origin)
		}
	}
	if diff := cmp.Diff([]string{"sys/class/net/eth2/carrier"}, errs); diff != "" {
		t.Errorf("error sources (-want +got):\n%s", diff)
	}
}

func originOf(s *facts.Snapshot, origin string) facts.Source {
	for _, src := range s.Sources {
		if src.Origin == origin {
			return src
		}
	}
	return facts.Source{}
}
