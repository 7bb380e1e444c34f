package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// testFleet is four nodes with testReport's diagnoses spread over them, one partial and one
// unreadable node, and one fleet diagnosis quoting real ibstat lines (corpus case 018).
func testFleet() *report.Fleet {
	r := testReport()
	sm, ipoib, pcie := r.Diagnoses[0], r.Diagnoses[1], r.Diagnoses[2]
	node := func(host string, ds ...report.Diagnosis) report.FleetNode {
		n := report.FleetNode{Host: host, Hostname: host, Snapshot: "snapshots/" + host + ".tar.xz", Status: report.NodeOK,
			Diagnoses: ds, Skipped: r.Skipped}
		if len(ds) > 0 {
			n.Worst = ds[0].Severity
		}
		return n
	}
	partial := node("node003", sm)
	partial.Status, partial.Incomplete = report.NodePartial, []string{"lspci (sos_commands/pci/lspci_-nnvv)"}
	return &report.Fleet{
		SchemaVersion: 1,
		Tool:          report.Tool{Name: "rdmadoctor", Version: "1.2.3"},
		Nodes: []report.FleetNode{
			node("node001", sm, ipoib), node("node002", sm, pcie), partial, node("node004"),
			{Host: "node005", Snapshot: "snapshots/node005.tar.xz", Status: report.NodeUnreadable, Error: "snapshots/node005.tar.xz: unexpected EOF",
				Diagnoses: []report.Diagnosis{}, Skipped: []report.Skipped{}},
		},
		Groups: []report.Group{
			{ID: sm.ID, Title: sm.Title, Severity: sm.Severity, Nodes: []string{"node001", "node002", "node003"}, HostList: "node[001-003]", Subjects: 3, Example: sm.Message},
			{ID: pcie.ID, Title: pcie.Title, Severity: pcie.Severity, Nodes: []string{"node002"}, HostList: "node002", Subjects: 1, Example: pcie.Message},
			{ID: ipoib.ID, Title: ipoib.Title, Severity: ipoib.Severity, Nodes: []string{"node001"}, HostList: "node001", Subjects: 1, Example: ipoib.Message},
		},
		FleetDiagnoses: []report.FleetDiagnosis{{
			Rank: 1, ID: "port-rate-below-peers", Title: "Port rate below its peers", Severity: "warning", Confidence: "medium",
			Message: "node002 ibp4s0 port 1 runs 56 Gb/s while 1 node of CA type MT4115 runs 100 Gb/s",
			Nodes:   []string{"node002", "node001"}, HostList: "node[001-002]",
			Subject: report.Subject{Device: "ibp4s0", Port: ptr(1)},
			Evidence: []report.FleetEvidence{
				{Host: "node002", Evidence: facts.Evidence{Source: "ibstat", Path: "ibstat", Line: 11, Text: "                Rate: 56"}},
				{Host: "node001", Evidence: facts.Evidence{Source: "ibstat", Path: "ibstat", Line: 11, Text: "                Rate: 100"}},
			},
			Fix:        []report.Fix{{Command: "mlxlink -d ibp4s0 -p 1", Note: "on node002: which speeds do the port and the cable enable?"}},
			References: []string{},
		}},
		Skipped: []report.Skipped{},
		Fabric:  testFabric(),
	}
}

func TestFleetGolden(t *testing.T) {
	for _, tc := range []struct {
		golden, format string
	}{
		{"fleet.txt", "table"}, {"fleet.json", "json"}, {"fleet.yaml", "yaml"}, {"fleet.md", "markdown"},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteFleet(&b, tc.format, testFleet(), Options{}); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.golden, b.Bytes())
		})
	}
}

// testFabric is a fabric of two ports on one cable, as node02's iblinkinfo
// (fixtures/iblinkinfo/back-to-back-ddr.txt) names them, with one sminfo answer.
func testFabric() *facts.FleetFabric {
	one, three, four := 1, 3, 4
	ev := facts.FabricEvidence{Host: "node02", Source: "iblinkinfo", Path: "iblinkinfo", Line: 4,
		Text: `      0x0002c90300002f79      3    1[  ] ==( 4X           5.0 Gbps Active/  LinkUp)==>       4    1[  ] "MT25408 ConnectX Mellanox Technologies" ( )`}
	return &facts.FleetFabric{
		Nodes: []facts.FleetFabricNode{{GUID: "0x0002c90300002f79", Type: "CA", Description: "node01 mlx4_0", LID: &three, SeenBy: []facts.FabricEvidence{ev}}},
		Ports: []facts.FleetFabricPort{
			{ID: "0x0002c90300002779/1", Port: 1, LID: &four, Subnet: "0x0002c90300002779/1", Views: []facts.FabricPortView{}},
			{ID: "0x0002c90300002f79/1", NodeGUID: "0x0002c90300002f79", Port: 1, NodeType: "CA", LID: &three, Subnet: "0x0002c90300002779/1", Hosts: []string{"node01"},
				Views: []facts.FabricPortView{{Host: "node02", Sources: []string{"iblinkinfo"}}}},
		},
		Links:   []facts.FleetLink{{A: "0x0002c90300002779/1", B: "0x0002c90300002f79/1", Evidence: []facts.FabricEvidence{ev}}},
		Hosts:   []facts.FabricHost{{Host: "node01", Inputs: []string{"iblinkinfo"}, Ports: []facts.FabricHostPort{{Device: "mlx4_0", Port: 1, LID: &three}}}},
		SMViews: []facts.FabricSMView{{Host: "node02", Port: &one, SMLID: &four}},
	}
}

// TestFleetJSONStreamed: the node-at-a-time JSON is what encoding/json writes for the whole
// document, with a fabric, an empty one and none (a field added to report.Fleet or
// facts.FleetFabric but not to FleetJSON fails here).
func TestFleetJSONStreamed(t *testing.T) {
	emptyFabric := testFleet()
	emptyFabric.Fabric = &facts.FleetFabric{Nodes: []facts.FleetFabricNode{}, Links: []facts.FleetLink{}}
	for _, f := range []*report.Fleet{testFleet(), emptyFabric, {SchemaVersion: 1, Nodes: []report.FleetNode{}}, {SchemaVersion: 1}} {
		var got bytes.Buffer
		if err := FleetJSON(&got, f); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(f); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.String(), got.String()); diff != "" {
			t.Errorf("FleetJSON differs from encoding/json (-want +got):\n%s", diff)
		}
	}
}

// TestFleetEscapes: a host name, error or message with terminal control characters prints
// escaped in the table and Markdown, never raw.
func TestFleetEscapes(t *testing.T) {
	f := testFleet()
	f.Nodes[4].Host = "evil\x1b]0;pwned\a"
	f.Nodes[4].Error = "read \x1b[2J: unexpected EOF"
	f.Groups[0].Example = "mlx5_0\x1b[2J port 1"
	for _, format := range []string{"table", "markdown"} {
		var b bytes.Buffer
		if err := WriteFleet(&b, format, f, Options{}); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(b.String(), "\x1b\a") {
			t.Errorf("%s: raw control characters in:\n%s", format, b.String())
		}
		if !strings.Contains(b.String(), `\x1b[2J`) {
			t.Errorf("%s: escaped sequence missing:\n%s", format, b.String())
		}
	}
	if f.Nodes[4].Host != "evil\x1b]0;pwned\a" {
		t.Error("rendering changed the report")
	}
}

// TestFleetTableLongHostNames: host names longer than their column (snapshots labelled by
// their folder names) wrap after a dash or a comma, never inside a word, and no character is
// lost: each name reads back whole from its lines, in the worst nodes, the groups and the
// fleet diagnoses, at 80 and 100 columns.
func TestFleetTableLongHostNames(t *testing.T) {
	f := testFleet()
	long := []string{"cx-ib-mode-on-ethernet-switch-rack12-node0042", "no-rdma-device-kernel-asks-for-firmware"}
	for i := range f.Nodes[:2] {
		f.Nodes[i].Host = long[i]
	}
	f.Groups[0].HostList = long[0] + "," + long[1]
	f.FleetDiagnoses[0].HostList = long[0] + "," + long[1]
	for _, width := range []int{80, 100} {
		var b strings.Builder
		if err := FleetTable(&b, f, Options{Width: width}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, line := range strings.Split(out, "\n") {
			if cols(line) > width || strings.HasSuffix(line, " ~") {
				t.Errorf("at %d: line %d wide or clipped: %q", width, cols(line), line)
			}
		}
		// A piece of a name (a word with a dash in it) starts at the name's start or after a
		// dash, and ends at its end or after a dash: never inside a word.
		pieces := map[string]int{}
		for _, field := range strings.Fields(out) {
			field = strings.TrimSuffix(field, ",")
			if len(field) < 3 || !strings.Contains(field, "-") {
				continue
			}
			for _, h := range long {
				i := strings.Index(h, field)
				if i < 0 {
					continue
				}
				pieces[h]++
				if end := i + len(field); i > 0 && h[i-1] != '-' || end < len(h) && h[end-1] != '-' {
					t.Errorf("at %d: %q is %s broken inside a word", width, field, h)
				}
			}
		}
		for _, h := range long {
			if pieces[h] == 0 {
				t.Errorf("at %d: no piece of %s in the table:\n%s", width, h, out)
			}
		}
	}
}
