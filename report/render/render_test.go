package render

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func ptr[T any](v T) *T { return &v }

// testReport has a cause and its consequence, a node-wide diagnosis with a reboot, evidence
// without a line number, skipped rules and inputs with problems. The evidence lines are real
// ibstat/lspci/ip output lines (corpus case 017 and the sysfs ABI).
func testReport() *report.Report {
	return &report.Report{
		SchemaVersion: 1,
		Tool:          report.Tool{Name: "rdmadoctor", Version: "1.2.3"},
		Host:          report.Host{Hostname: "node01", Kernel: "5.15.0-91-generic"},
		Source:        facts.SourceInfo{Kind: "captures", Path: "tickets/4711"},
		Diagnoses: []report.Diagnosis{
			{Rank: 1, ID: "ib-port-no-subnet-manager", Title: "IB port has no subnet manager", Severity: "critical", Confidence: "high",
				Scope: "port", Subject: report.Subject{Device: "ibp4s0", Port: ptr(1), PCI: "0000:04:00.0", Netdev: "ib0"},
				Message: "ibp4s0 port 1 is LinkUp but Initializing: no SM has assigned it a LID",
				Evidence: []facts.Evidence{
					{Source: "ibstat", Path: "ibstat", Line: 10, Text: "                State: Initializing"},
					{Source: "ibstat", Path: "ibstat", Line: 14, Text: "                SM lid: 0"},
				},
				Fix: []report.Fix{{Command: "sminfo -C ibp4s0 -P 1", Note: "does any SM answer?"},
					{Command: "systemctl enable --now opensm", Note: "on exactly one host of a back-to-back or unmanaged fabric"}},
				Explains: []string{"ipoib-interface-down"}, References: []string{"https://github.com/linux-rdma/opensm"}},
			{Rank: 2, ID: "ipoib-interface-down", Title: "IPoIB interface has no carrier", Severity: "warning", Confidence: "high",
				Scope: "port", Subject: report.Subject{Device: "ibp4s0", Port: ptr(1), Netdev: "ib0"},
				Message:  "ib0 has no carrier | NO-CARRIER",
				Evidence: []facts.Evidence{{Source: "ip_addr", Path: "ip_addr", Line: 3, Text: "4: ib0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 2044"}},
				Fix:      []report.Fix{{Command: "ip link show ib0"}}, Explains: []string{},
				ExplainedBy: ptr("ib-port-no-subnet-manager"), ExplainedByRank: 1, References: []string{}},
			{Rank: 3, ID: "pcie-link-degraded", Title: "NIC trained below its PCIe capability", Severity: "error", Confidence: "high",
				Scope: "device", Subject: report.Subject{Device: "ibp4s0", PCI: "0000:04:00.0"},
				Message: "0000:04:00.0 runs 8GT/s x4 of 8GT/s x8",
				Evidence: []facts.Evidence{
					{Source: "lspci", Path: "sos_commands/pci/lspci_-nnvv", Line: 41, Text: "\t\tLnkSta:\tSpeed 8GT/s, Width x4 (downgraded)"},
					{Source: "sysfs_infiniband", Path: "sys/class/infiniband/ibp4s0/ports/1/rate", Text: "56 Gb/sec (4X FDR)"},
				},
				Fix:         []report.Fix{{Command: "lspci -s 0000:04:00.0 -vv", Note: "after reseating in an x8 slot"}},
				NeedsReboot: true, Explains: []string{}, References: []string{}},
			{Rank: 4, ID: "rdma-memlock-limit-too-low", Title: "Locked-memory limit too low", Severity: "info", Confidence: "medium",
				Scope: "node", Message: "max locked memory is 64 KiB",
				Evidence: []facts.Evidence{{Source: "ulimit", Path: "ulimit_-a", Line: 7, Text: "max locked memory       (kbytes, -l) 64"}},
				Fix:      []report.Fix{{Command: "ulimit -l unlimited && echo '* - memlock unlimited' >> /etc/security/limits.conf"}},
				Explains: []string{}, References: []string{}},
		},
		Ignored: []report.Ignored{
			{ID: "cpufreq-governor-not-performance", Severity: "info", Subject: report.Subject{},
				Reason: "login node; power saving is wanted | ticket OPS-12", Message: "cpu0-cpu15 run the powersave governor"},
		},
		Skipped: []report.Skipped{
			{ID: "link-type-mismatch-with-fabric", Reason: "mstconfig output not in snapshot: install mstflint and run `mstconfig -d <pci> -e query`", Missing: []string{"nvconfig"}},
			{ID: "nvconfig-change-pending-reset", Reason: "mstconfig output not in snapshot: install mstflint and run `mstconfig -d <pci> -e query`", Missing: []string{"nvconfig"}},
			{ID: "roce-pfc-not-enabled", Reason: "mlnx_qos output not in snapshot: run `mlnx_qos -i <netdev>` (mlnx-tools, DOCA-OFED)", Missing: []string{"qos"}},
		},
		Sources: []facts.Source{
			{Name: "ibstat", Origin: "ibstat", Status: facts.StatusOK, RecognisedBy: "name"},
			{Name: "ip_addr", Origin: "ip_addr", Status: facts.StatusOK, RecognisedBy: "name"},
			{Name: "lspci", Origin: "sos_commands/pci/lspci_-nnvv", Status: facts.StatusError, Error: "line 7: \"\\tLnkSta: Speed\": no width"},
			{Name: "mstconfig_query", Status: facts.StatusMissing, Error: "not in snapshot: install mstflint"},
			{Name: "perfquery", Origin: "perfquery", Status: facts.StatusUnsupported, Error: "ibwarn: [3451] mad_rpc_open_port: client_register for mgmt 1 failed"},
			{Name: "unrecognized", Origin: "notes.txt", Status: facts.StatusUnrecognized, Error: "no parser recognises this file by name or content"},
		},
		Evaluated: 9,
	}
}

func TestGolden(t *testing.T) {
	empty := &report.Report{SchemaVersion: 1, Tool: report.Tool{Name: "rdmadoctor", Version: "1.2.3"},
		Source: facts.SourceInfo{Kind: "captures", Path: "ok"}, Diagnoses: []report.Diagnosis{}, Skipped: []report.Skipped{},
		Sources: []facts.Source{{Name: "ibstat", Origin: "ibstat", Status: facts.StatusOK}}, Evaluated: 3}
	for _, tc := range []struct {
		golden string
		r      *report.Report
		write  func(*bytes.Buffer, *report.Report) error
	}{
		{"report.txt", testReport(), func(b *bytes.Buffer, r *report.Report) error { return Table(b, r, Options{}) }},
		{"report.color.txt", testReport(), func(b *bytes.Buffer, r *report.Report) error { return Table(b, r, Options{Color: true}) }},
		{"report.json", testReport(), func(b *bytes.Buffer, r *report.Report) error { return JSON(b, r) }},
		{"report.yaml", testReport(), func(b *bytes.Buffer, r *report.Report) error { return YAML(b, r) }},
		{"report.md", testReport(), func(b *bytes.Buffer, r *report.Report) error { return Markdown(b, r) }},
		{"empty.txt", empty, func(b *bytes.Buffer, r *report.Report) error { return Table(b, r, Options{}) }},
		{"empty.yaml", empty, func(b *bytes.Buffer, r *report.Report) error { return YAML(b, r) }},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			var b bytes.Buffer
			tc.r.SetCompleteness() // as the engine does
			if err := tc.write(&b, tc.r); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.golden, b.Bytes())
		})
	}
}

// checkGolden compares got with testdata/name, or with -update writes it there.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs; go test ./report/render -update rewrites it (-want +got):\n%s", path, diff)
	}
}

// TestColor: the plain table has no escape sequences; the coloured one paints the severities.
func TestColor(t *testing.T) {
	var plain, color bytes.Buffer
	if err := Table(&plain, testReport(), Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Table(&color, testReport(), Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "\x1b[") {
		t.Error("plain table contains escape sequences")
	}
	if !strings.Contains(color.String(), "\x1b[1;91mcritical\x1b[0m") {
		t.Error("coloured table does not paint critical bold red")
	}
}

func TestUseColor(t *testing.T) {
	var buf bytes.Buffer
	if UseColor(&buf, false) {
		t.Error("colour for a buffer")
	}
	t.Setenv("NO_COLOR", "1")
	if UseColor(os.Stdout, false) {
		t.Error("colour with NO_COLOR set")
	}
}

// TestYAMLMatchesJSON: the YAML document decodes to the same report as the JSON one.
func TestYAMLMatchesJSON(t *testing.T) {
	var y bytes.Buffer
	if err := YAML(&y, testReport()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"schema_version: 1\n", "explained_by: null\n", "explained_by: ib-port-no-subnet-manager\n", "  - id: link-type-mismatch-with-fabric\n", "      pci: '0000:04:00.0'\n"} {
		if !strings.Contains(y.String(), want) {
			t.Errorf("YAML lacks %q", want)
		}
	}
}

// TestConsequenceOfIgnored: a consequence whose cause the ignore list took out says so.
func TestConsequenceOfIgnored(t *testing.T) {
	r := testReport()
	r.Ignore([]report.Ignore{{ID: "ib-port-no-subnet-manager", Reason: "lab pair"}})
	var table, md bytes.Buffer
	if err := Table(&table, r, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, r); err != nil {
		t.Fatal(err)
	}
	const want = "(consequence of ib-port-no-subnet-manager, ignored)"
	for name, out := range map[string]string{"table": table.String(), "markdown": md.String()} {
		if !strings.Contains(out, want) {
			t.Errorf("%s lacks %q:\n%s", name, want, out)
		}
		if !strings.Contains(out, "ib-port-no-subnet-manager") || !strings.Contains(out, "lab pair") {
			t.Errorf("%s does not list the ignored diagnosis with its reason", name)
		}
	}
	if r.Diagnoses[0].ID != "ipoib-interface-down" || r.Diagnoses[0].Rank != 1 {
		t.Errorf("first diagnosis after ignoring = %s #%d, want ipoib-interface-down #1", r.Diagnoses[0].ID, r.Diagnoses[0].Rank)
	}
}
