package parse_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func link(speed *float64, width int, sd, wd bool, bw *float64) *facts.PCIeLink {
	return &facts.PCIeLink{SpeedGTs: speed, Width: ip(width), SpeedDowngraded: sd, WidthDowngraded: wd, BandwidthGbps: bw}
}

var acsAllOff = map[string]bool{"SrcValid": false, "TransBlk": false, "ReqRedir": false, "CmpltRedir": false,
	"UpstreamFwd": false, "EgressCtrl": false, "DirectTrans": false}

func TestLSPCI(t *testing.T) {
	cx7 := "Mellanox Technologies MT2910 Family [ConnectX-7]"
	cx5vf := "Mellanox Technologies MT27800 Family [ConnectX-5 Virtual Function]"
	for _, tc := range []struct {
		fixture string
		want    []facts.PCIFunction
	}{
		{"lspci/cx6-ocp3-grep-width.txt", []facts.PCIFunction{{
			LnkCap: link(fp(8), 4, false, false, fp(31.504)), LnkSta: link(fp(8), 4, false, false, fp(31.504))}}},
		{"lspci/cx2-aarch64-x1-downgraded.txt", []facts.PCIFunction{{LnkSta: link(fp(5), 1, false, true, fp(4))}}},
		{"lspci/cx5-socket-direct-speed-unknown.txt", []facts.PCIFunction{{
			LnkCap: link(nil, 8, false, false, nil), LnkSta: link(nil, 8, false, false, nil)}}},
		{"lspci/cx3-v-access-denied.txt", []facts.PCIFunction{{Address: "81:00.0", Class: "Network controller",
			Name: "Mellanox Technologies MT27500 Family [ConnectX-3]", VF: bp(false), NUMANode: ip(1),
			CapabilitiesDenied: bp(true), KernelDriver: "mlx4_core"}}},
		{"lspci/bf3-rev.txt", []facts.PCIFunction{
			{Address: "16:00.0", Class: "Infiniband controller", Name: "Mellanox Technologies MT43244 BlueField-3 integrated ConnectX-7 network controller", VF: bp(false)},
			{Address: "16:00.1", Class: "Infiniband controller", Name: "Mellanox Technologies MT43244 BlueField-3 integrated ConnectX-7 network controller", VF: bp(false)},
			{Address: "16:00.2", Class: "DMA controller", Name: "Mellanox Technologies MT43244 BlueField-3 SoC Management Interface", VF: bp(false)}}},
		{"lspci/cx7-domains.txt", []facts.PCIFunction{
			{Address: "0000:05:00.0", Class: "Ethernet controller", Name: cx7, VF: bp(false)},
			{Address: "0000:05:00.1", Class: "Ethernet controller", Name: cx7, VF: bp(false)},
			{Address: "0001:05:00.0", Class: "Ethernet controller", Name: cx7, VF: bp(false)},
			{Address: "0001:05:00.1", Class: "Ethernet controller", Name: cx7, VF: bp(false)}}},
		{"lspci/cx5-nn-pf-vfs.txt", []facts.PCIFunction{
			{Address: "42:00.0", Class: "Ethernet controller", ClassID: "0200", VendorID: "15b3", DeviceID: "1017", Name: "Mellanox Technologies MT27800 Family [ConnectX-5]", VF: bp(false)},
			{Address: "42:00.1", Class: "Ethernet controller", ClassID: "0200", VendorID: "15b3", DeviceID: "1017", Name: "Mellanox Technologies MT27800 Family [ConnectX-5]", VF: bp(false)},
			{Address: "42:00.2", Class: "Ethernet controller", ClassID: "0200", VendorID: "15b3", DeviceID: "1018", Name: cx5vf, VF: bp(true)},
			{Address: "42:00.3", Class: "Ethernet controller", ClassID: "0200", VendorID: "15b3", DeviceID: "1018", Name: cx5vf, VF: bp(true)},
			{Address: "42:00.4", Class: "Ethernet controller", ClassID: "0200", VendorID: "15b3", DeviceID: "1018", Name: cx5vf, VF: bp(true)},
			{Address: "42:00.5", Class: "Ethernet controller", ClassID: "0200", VendorID: "15b3", DeviceID: "1018", Name: cx5vf, VF: bp(true)}}},
		{"lspci/cx5ex-vvvs-numa-gen3-in-gen4.txt", []facts.PCIFunction{{Address: "5e:00.0", Class: "Ethernet controller",
			Name: "Mellanox Technologies MT28800 Family [ConnectX-5 Ex]", VF: bp(false),
			LnkCap: link(fp(16), 16, false, false, fp(252.048)), LnkSta: link(fp(8), 16, false, false, fp(126.016)),
			NUMANode: ip(0), ACSCtl: acsAllOff, KernelDriver: "mlx5_core", PartNumber: "MCX556A-EDAT", SerialNumber: "MT1945X00360"}}},
		{"lspci/cx7-vvv-vpd-acs.txt", []facts.PCIFunction{{Address: "21:00.0", Class: "Ethernet controller", Name: cx7, VF: bp(false),
			LnkCap: link(fp(32), 16, false, false, fp(504.112)), LnkSta: link(fp(32), 16, false, false, fp(504.112)),
			ACSCtl: acsAllOff, KernelDriver: "mlx5_core", PartNumber: "MCX755106AS-HEAT", SerialNumber: "MT2421600CDE"}}},
	} {
		got, err := parse.LSPCI(fixtures.Read(t, tc.fixture))
		// without root lspci hides the capabilities: named, the rest kept
		if ps, ok := parse.AsProblems(err); err != nil && (tc.fixture != "lspci/cx3-v-access-denied.txt" || !ok || len(ps) != 1 || !strings.Contains(ps[0].Why, "lspci ran without root")) {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got, noEvidence); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

// TestLSPCILoops: what people paste from loops over the Mellanox functions (a Lenovo SD665-N V3
// with four ConnectX-7, fixtures/lspci/PROVENANCE.md): whole `lspci -s X -vvv` blocks one after
// another, the same loop piped through `grep -E 'LnkCap|LnkSta'` (no line names its function),
// and `echo $bdf $(lspci -s $bdf -vvv | grep -i numa)` (each line names its function).
func TestLSPCILoops(t *testing.T) {
	x16 := link(fp(32), 16, false, false, fp(504.112))
	cx7 := "Mellanox Technologies MT2910 Family [ConnectX-7]"
	block := func(addr string) facts.PCIFunction {
		return facts.PCIFunction{Address: addr, Class: "Ethernet controller", Name: cx7, VF: bp(false), LnkCap: x16, LnkSta: x16,
			NUMANode: ip(0), KernelDriver: "mlx5_core", PartNumber: "SN37B23797", SerialNumber: "SN0000"}
	}
	numa := func(addr string, n int) facts.PCIFunction { return facts.PCIFunction{Address: addr, NUMANode: ip(n)} }
	orphan := facts.PCIFunction{LnkCap: x16, LnkSta: x16}
	for _, tc := range []struct {
		fixture, kinds string
		whole          bool
		want           []facts.PCIFunction
	}{
		{"lspci/cx7-loop-s-vvv-blocks.txt", "", true, []facts.PCIFunction{block("03:00.0"), block("23:00.0")}},
		{"lspci/cx7-loop-grep-lnkcap-lnksta.txt", "LnkCap2:|LnkCap:|LnkSta2:|LnkSta:", false,
			[]facts.PCIFunction{orphan, orphan, orphan, orphan}},
		{"lspci/cx7-loop-echo-bdf-numa.txt", "NUMA node:", false,
			[]facts.PCIFunction{numa("03:00.0", 0), numa("23:00.0", 0), numa("a3:00.0", 1), numa("c3:00.0", 1)}},
	} {
		data := fixtures.Read(t, tc.fixture)
		got, err := parse.LSPCI(data)
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got, noEvidence); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
		kinds, whole := parse.LSPCIKinds(data)
		if whole != tc.whole || (!whole && kinds != tc.kinds) {
			t.Errorf("%s: kinds %q whole %v, want %q %v", tc.fixture, kinds, whole, tc.kinds, tc.whole)
		}
	}
	// a list of headers (`lspci | grep Mellanox`) holds header lines only
	if kinds, whole := parse.LSPCIKinds(fixtures.Read(t, "lspci/bf3-rev.txt")); whole || !regexp.MustCompile(kinds).MatchString("16:00.0 Infiniband controller: Mellanox") {
		t.Errorf("bf3-rev: kinds %q whole %v", kinds, whole)
	}
}

func TestLSPCIEvidence(t *testing.T) {
	got, err := parse.LSPCI(fixtures.Read(t, "lspci/cx2-aarch64-x1-downgraded.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := facts.EvidenceMap{"lnksta": ev(1, "                LnkSta: Speed 5GT/s (ok), Width x1 (downgraded)")}
	if diff := cmp.Diff(want, got[0].Evidence); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLSPCITree(t *testing.T) {
	got, err := parse.LSPCI(fixtures.Read(t, "lspci/tree-puget-wrx90-cx7.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// Check the functions a join needs: the ConnectX-7 behind its root port, a deep NVMe chain,
	// a single child behind a two-bridge chain, and a function on a root bus.
	byAddr := map[string]facts.PCIFunction{}
	for _, f := range got {
		byAddr[f.Address] = f
	}
	want := []facts.PCIFunction{
		{Address: "0000:20:01.1"},
		{Address: "0000:21:00.0", Name: "Mellanox Technologies MT2910 Family [ConnectX-7]", VF: bp(false), Parent: "0000:20:01.1"},
		{Address: "0000:21:00.1", Name: "Mellanox Technologies MT2910 Family [ConnectX-7]", VF: bp(false), Parent: "0000:20:01.1"},
		{Address: "0000:0c:00.0", Name: "Samsung Electronics Co Ltd NVMe SSD Controller S4LV008[Pascal]", VF: bp(false), Parent: "0000:0a:04.0"},
		{Address: "0000:0a:04.0", Parent: "0000:09:00.0"},
		{Address: "0000:e2:00.0", Name: "ASPEED Technology, Inc. ASPEED Graphics Family", VF: bp(false), Parent: "0000:e1:00.0"},
		{Address: "0000:e1:00.0", Parent: "0000:e0:05.2"},
		{Address: "0000:e3:00.4", Name: "Advanced Micro Devices, Inc. [AMD] Device 14c9", VF: bp(false), Parent: "0000:e0:07.1"},
		{Address: "0000:c0:00.3", Name: "Advanced Micro Devices, Inc. [AMD] Device 14a6", VF: bp(false)},
	}
	for _, w := range want {
		if diff := cmp.Diff(w, byAddr[w.Address], noEvidence); diff != "" {
			t.Errorf("%s (-want +got):\n%s", w.Address, diff)
		}
	}
	if len(got) != 113 { // every "-XX.X" of the drawing
		t.Errorf("got %d functions, want 113", len(got))
	}
}

func BenchmarkLSPCI(b *testing.B) {
	data := fixtures.Read(b, "lspci/cx7-vvv-vpd-acs.txt")
	for b.Loop() {
		if _, err := parse.LSPCI(data); err != nil {
			b.Fatal(err)
		}
	}
}
