package engine_test

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// testRules are small rules written for these tests (testdata/rules), not the built-in ones.
func testRules() engine.Source {
	return engine.Source{Name: "testdata/rules", FS: os.DirFS("testdata/rules")}
}

func testEngine(t testing.TB) *engine.Engine {
	t.Helper()
	e, err := engine.New(context.Background(), engine.Options{}, testRules())
	if err != nil {
		t.Fatal(err)
	}
	e.Tool.Version = "test"
	return e
}

func ptr[T any](v T) *T { return &v }

func ev(path string, line int, text string) facts.Evidence {
	return facts.Evidence{Source: "ibstat", Path: path, Line: line, Text: text}
}

// testSnapshot is a node with: mlx5_0 port 1 LinkUp but Initializing (no SM) whose IPoIB netdev
// ib0 has no carrier; mlx5_0 port 2 Polling; mlx5_1 port 1 Active and port 2 Polling but marked
// unused in the profile; a NIC at x8 of x16; memlock 64 KiB. mstconfig output is missing.
func testSnapshot() *facts.Snapshot {
	port := func(n int, state, phys string, smLID int) facts.Port {
		return facts.Port{Number: n, State: state, PhysicalState: phys, LinkLayer: "InfiniBand", SMLID: ptr(smLID),
			Evidence: facts.EvidenceMap{
				"state":          ev("ibstat", 10*n, "State: "+state),
				"physical_state": ev("ibstat", 10*n+1, "Physical state: "+phys),
				"sm_lid":         ev("ibstat", 10*n+2, "SM lid: 0"),
			}}
	}
	sources := []facts.Source{
		{Name: "ibstat", Origin: "ibstat", Status: facts.StatusOK},
		{Name: "ip_addr", Origin: "ip_addr", Status: facts.StatusOK},
		{Name: "lspci", Origin: "lspci_-nnvv", Status: facts.StatusOK},
		{Name: "ulimit", Origin: "ulimit_-a", Status: facts.StatusOK},
		{Name: "mstconfig_query", Status: facts.StatusMissing, Error: "not in snapshot"},
	}
	return &facts.Snapshot{
		SchemaVersion: facts.SchemaVersion,
		Source:        facts.SourceInfo{Kind: "captures", Path: "node01"},
		Host: facts.Host{Hostname: "node01", Kernel: "6.8.0",
			Memlock: &facts.MemlockLimit{SoftKiB: ptr(int64(64)), Evidence: facts.Evidence{Source: "ulimit", Path: "ulimit_-a", Line: 7, Text: "max locked memory (kbytes, -l) 64"}}},
		Devices: []facts.Device{
			{Name: "mlx5_0", PCIAddress: "0000:81:00.0", Ports: []facts.Port{port(1, "Initializing", "LinkUp", 0), port(2, "Down", "Polling", 0)}},
			{Name: "mlx5_1", Ports: []facts.Port{port(1, "Active", "LinkUp", 1), port(2, "Down", "Polling", 0)}},
		},
		Netdevs: []facts.Netdev{{Name: "ib0", Kind: facts.NetdevIPoIB, Carrier: ptr(false), RDMADevice: "mlx5_0", RDMAPort: ptr(1),
			Evidence: facts.EvidenceMap{"carrier": {Source: "ip_addr", Path: "ip_addr", Line: 3, Text: "4: ib0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 2044"}}}},
		PCI: []facts.PCIFunction{{Address: "0000:81:00.0", LnkCap: &facts.PCIeLink{Width: ptr(16)}, LnkSta: &facts.PCIeLink{Width: ptr(8)},
			Evidence: facts.EvidenceMap{
				"lnkcap": {Source: "lspci", Path: "lspci_-nnvv", Line: 20, Text: "LnkCap: Port #0, Speed 8GT/s, Width x16"},
				"lnksta": {Source: "lspci", Path: "lspci_-nnvv", Line: 22, Text: "LnkSta: Speed 8GT/s, Width x8 (downgraded)"},
			}}},
		Sources:   sources,
		Available: facts.Available(sources),
		Profile:   &facts.Profile{Devices: map[string]facts.DeviceIntent{"mlx5_1": {Ports: map[string]facts.PortIntent{"2": {Unused: true}}}}},
	}
}

func TestDiagnose(t *testing.T) {
	r, err := testEngine(t).Diagnose(context.Background(), testSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	noSM := []report.Fix{{Command: "sminfo -C mlx5_0 -P 1", Note: "does any SM answer?"}, {Command: "systemctl enable --now opensm"}}
	want := []report.Diagnosis{
		{Rank: 1, ID: "no-sm", Title: "IB port has no subnet manager", Severity: "critical", Confidence: "high", Scope: "port",
			Subject:  report.Subject{Device: "mlx5_0", Port: ptr(1), PCI: "0000:81:00.0"},
			Message:  "mlx5_0 port 1 is Initializing with SM lid 0",
			Evidence: []facts.Evidence{ev("ibstat", 10, "State: Initializing"), ev("ibstat", 12, "SM lid: 0")},
			Fix:      noSM, Explains: []string{"ipoib-down"}, References: []string{"https://example.org/no-sm"}},
		{Rank: 2, ID: "ipoib-down", Title: "IPoIB interface without carrier", Severity: "warning", Confidence: "high", Scope: "port",
			Subject:  report.Subject{Device: "mlx5_0", Port: ptr(1), Netdev: "ib0"},
			Message:  "ib0 has no carrier",
			Evidence: []facts.Evidence{{Source: "ip_addr", Path: "ip_addr", Line: 3, Text: "4: ib0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 2044"}},
			Fix:      []report.Fix{{Command: "ip link show ib0"}}, Explains: []string{}, ExplainedBy: ptr("no-sm"), ExplainedByRank: 1, References: []string{}},
		{Rank: 3, ID: "link-down", Title: "Port has no physical link", Severity: "critical", Confidence: "high", Scope: "port",
			Subject:  report.Subject{Device: "mlx5_0", Port: ptr(2), PCI: "0000:81:00.0"},
			Message:  "mlx5_0 port 2 is Polling",
			Evidence: []facts.Evidence{ev("ibstat", 21, "Physical state: Polling")},
			Fix:      []report.Fix{{Command: "ibstat mlx5_0 2"}}, Explains: []string{"no-sm"}, References: []string{}},
		{Rank: 4, ID: "no-sm", Title: "IB port has no subnet manager", Severity: "critical", Confidence: "high", Scope: "port",
			Subject:  report.Subject{Device: "mlx5_0", Port: ptr(2), PCI: "0000:81:00.0"},
			Message:  "mlx5_0 port 2 is Down with SM lid 0",
			Evidence: []facts.Evidence{ev("ibstat", 20, "State: Down"), ev("ibstat", 22, "SM lid: 0")},
			Fix:      []report.Fix{{Command: "sminfo -C mlx5_0 -P 2", Note: "does any SM answer?"}, {Command: "systemctl enable --now opensm"}},
			Explains: []string{}, ExplainedBy: ptr("link-down"), ExplainedByRank: 3, References: []string{"https://example.org/no-sm"}},
		{Rank: 5, ID: "memlock-low", Title: "Locked-memory limit too low", Severity: "error", Confidence: "high", Scope: "node",
			Message:  "max locked memory is 64 KiB",
			Evidence: []facts.Evidence{{Source: "ulimit", Path: "ulimit_-a", Line: 7, Text: "max locked memory (kbytes, -l) 64"}},
			Fix:      []report.Fix{{Command: "ulimit -l unlimited", Note: "and set memlock unlimited in /etc/security/limits.conf"}},
			Explains: []string{}, References: []string{}},
		{Rank: 6, ID: "pcie-slow", Title: "PCIe link narrower than capable", Severity: "warning", Confidence: "medium", Scope: "device",
			Subject: report.Subject{PCI: "0000:81:00.0"},
			Message: "0000:81:00.0 runs x8 of x16",
			Evidence: []facts.Evidence{
				{Source: "lspci", Path: "lspci_-nnvv", Line: 22, Text: "LnkSta: Speed 8GT/s, Width x8 (downgraded)"},
				{Source: "lspci", Path: "lspci_-nnvv", Line: 20, Text: "LnkCap: Port #0, Speed 8GT/s, Width x16"},
			},
			Fix:         []report.Fix{{Command: "lspci -s 0000:81:00.0 -vv", Note: "LnkSta width x8"}, {Command: "setpci -s <bridge> CAP_EXP+0x10.w"}},
			NeedsReboot: true, Explains: []string{}, References: []string{}},
		{Rank: 7, ID: "link-down", Title: "Port has no physical link", Severity: "info", Confidence: "high", Scope: "unused_port",
			Subject:  report.Subject{Device: "mlx5_1", Port: ptr(2)},
			Message:  "mlx5_1 port 2 is Polling",
			Evidence: []facts.Evidence{ev("ibstat", 21, "Physical state: Polling")},
			Fix:      []report.Fix{{Command: "ibstat mlx5_1 2"}}, Explains: []string{"no-sm"}, References: []string{}},
		// A critical finding that an info one explains stays below its cause.
		{Rank: 8, ID: "no-sm", Title: "IB port has no subnet manager", Severity: "critical", Confidence: "high", Scope: "port",
			Subject:  report.Subject{Device: "mlx5_1", Port: ptr(2)},
			Message:  "mlx5_1 port 2 is Down with SM lid 0",
			Evidence: []facts.Evidence{ev("ibstat", 20, "State: Down"), ev("ibstat", 22, "SM lid: 0")},
			Fix:      []report.Fix{{Command: "sminfo -C mlx5_1 -P 2", Note: "does any SM answer?"}, {Command: "systemctl enable --now opensm"}},
			Explains: []string{}, ExplainedBy: ptr("link-down"), ExplainedByRank: 7, References: []string{"https://example.org/no-sm"}},
	}
	if diff := cmp.Diff(want, r.Diagnoses); diff != "" {
		t.Errorf("diagnoses (-want +got):\n%s", diff)
	}
	wantSkipped := []report.Skipped{{ID: "nv-link-type", Missing: []string{"nvconfig"},
		Reason: "mstconfig output not in snapshot: run `mstconfig -d <pci> -e q` (mstflint) or `mlxconfig -d <pci> -e q` (NVIDIA MFT)"}}
	if diff := cmp.Diff(wantSkipped, r.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	if r.Evaluated != 5 || r.SchemaVersion != 1 || r.Host.Hostname != "node01" || r.Tool.Version != "test" {
		t.Errorf("evaluated %d, schema %d, host %+v, tool %+v", r.Evaluated, r.SchemaVersion, r.Host, r.Tool)
	}
}

// TestDiagnoseDeterministic evaluates the same snapshot concurrently and in sequence: one
// prepared engine, identical reports.
func TestDiagnoseDeterministic(t *testing.T) {
	e := testEngine(t)
	first, err := e.Diagnose(context.Background(), testSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	results := make(chan *report.Report, 8)
	for range 8 {
		go func() {
			r, err := e.Diagnose(context.Background(), testSnapshot())
			if err != nil {
				t.Error(err)
			}
			results <- r
		}()
	}
	for range 8 {
		if diff := cmp.Diff(first, <-results, cmpopts.IgnoreUnexported(report.Report{})); diff != "" {
			t.Fatalf("reports differ (-first +later):\n%s", diff)
		}
	}
}

func TestSkippedReasonQuotesUnreadableInput(t *testing.T) {
	s := testSnapshot()
	s.Sources = append(s.Sources, facts.Source{Name: "mstconfig_query", Origin: "mstconfig_-d_81_00.0_q", Status: facts.StatusError,
		Error: "mstconfig_-d_81_00.0_q: line 4: \"Device type:\": no value"})
	r, err := testEngine(t).Diagnose(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	want := []report.Skipped{{ID: "nv-link-type", Missing: []string{"nvconfig"},
		Reason: "mstconfig output unreadable: mstconfig_-d_81_00.0_q: line 4: \"Device type:\": no value"}}
	if diff := cmp.Diff(want, r.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

func TestHideBelow(t *testing.T) {
	r, err := testEngine(t).Diagnose(context.Background(), testSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	r.HideBelow("error")
	type row struct {
		Rank, CauseRank int
		ID              string
	}
	var got []row
	for _, d := range r.Diagnoses {
		got = append(got, row{d.Rank, d.ExplainedByRank, d.ID})
	}
	// The last no-sm's cause (an info link-down) is hidden: it keeps its id but loses the rank.
	want := []row{{1, 0, "no-sm"}, {2, 0, "link-down"}, {3, 2, "no-sm"}, {4, 0, "memlock-low"}, {5, 0, "no-sm"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if r.Hidden != 3 || !r.AtLeast("warning") || !r.AtLeast("critical") {
		t.Errorf("hidden %d, AtLeast(warning) %v", r.Hidden, r.AtLeast("warning"))
	}
}

func TestNoRDMAFacts(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    facts.Snapshot
		want bool
	}{
		{"nothing", facts.Snapshot{}, true},
		{"tools ran and listed nothing", facts.Snapshot{Sources: []facts.Source{{Name: "ibstat", Status: facts.StatusOK}, {Name: "sysctl", Status: facts.StatusOK}}}, true},
		{"a plain Ethernet NIC", facts.Snapshot{PCI: []facts.PCIFunction{{Address: "0000:00:03.0", VendorID: "8086", ClassID: "0200"}}}, true},
		{"a device", facts.Snapshot{Devices: []facts.Device{{Name: "mlx5_0"}}}, false},
		{"a Mellanox function", facts.Snapshot{PCI: []facts.PCIFunction{{Address: "0000:81:00.0", VendorID: "15b3"}}}, false},
		{"a Mellanox function listed without ids (lspci | grep Mell)", facts.Snapshot{PCI: []facts.PCIFunction{{Address: "0000:17:00.0", Class: "Ethernet controller", Name: "Mellanox Technologies MT28841"}}}, false},
		{"an mstconfig query", facts.Snapshot{NVConfig: []facts.NVConfig{{Device: "81:00.0"}}}, false},
		{"a fabric tool refusal", facts.Snapshot{Fabric: facts.Fabric{Refusals: []facts.ToolRefusal{{Tool: "perfquery"}}}}, false},
		// corpus 014, 040, 042, 028/055: the only RDMA evidence is one of these.
		{"an ip link VF line with InfiniBand GUIDs", facts.Snapshot{Netdevs: []facts.Netdev{{VFs: []facts.NetdevVF{{Index: 5, NodeGUID: "00:00:00:00:00:00:00:00"}}}}}, false},
		{"an Ethernet VF line", facts.Snapshot{Netdevs: []facts.Netdev{{Name: "eno1", VFs: []facts.NetdevVF{{Index: 0, LinkAddress: "00:00:00:00:00:00"}}}}}, true},
		{"an IPoIB netdev", facts.Snapshot{Netdevs: []facts.Netdev{{Name: "ib0", Kind: facts.NetdevIPoIB}}}, false},
		{"an NCCL log", facts.Snapshot{Host: facts.Host{NCCLNetdevs: []facts.NCCLNetdev{{Use: "bootstrap", Netdev: "ib0"}}}}, false},
		{"mlx5 interrupts", facts.Snapshot{IRQs: []facts.IRQ{{Number: 98, Name: "mlx5_async0@pci:0000:01:00.0", Kind: "async"}}}, false},
		{"other interrupts", facts.Snapshot{IRQs: []facts.IRQ{{Number: 30, Name: "nvme0q1", Kind: "other"}}}, true},
		{"a module EEPROM", facts.Snapshot{Netdevs: []facts.Netdev{{Name: "enp65s0f0np0", Module: &facts.Module{Unreadable: "hexdump only"}}}}, false},
		// sos runs ibswitches on every node: on one without RDMA it says there is no umad ABI.
		{"a fabric tool finding no RDMA stack", facts.Snapshot{Fabric: facts.Fabric{Refusals: []facts.ToolRefusal{{Tool: "ibswitches",
			Message: "ibwarn: [11710] get_abi_version: can't read ABI version from /sys/class/infiniband_mad/abi_version (No such file or directory): is ib_umad module loaded?"}}}}, true},
	} {
		if got := engine.NoRDMAFacts(&tc.s); got != tc.want {
			t.Errorf("%s: NoRDMAFacts = %v, want %v", tc.name, got, tc.want)
		}
	}
}
