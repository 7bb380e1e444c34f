package parse_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestMlxLink(t *testing.T) {
	const (
		fdr  = "mlxlink/cx4-ib-fdr.txt"
		pcie = "mlxlink/cx6-pcie-gen1-x4.txt"
		bf3  = "mlxlink/bf3-100g-module-counters.txt"
		edr  = "mlxlink/bf3-ib-edr-excerpt.txt"
		sdr  = "mlxlink/cx5-ib-sdr-cable-speed-not-enabled.txt"
	)
	e := func(f string, n int) facts.Evidence { return fixtureEv(t, f, n) }
	// Fields is checked for a few keys below; the typed facts and their evidence are compared whole.
	opts := cmpopts.IgnoreFields(facts.MlxLink{}, "Fields")
	for _, tc := range []struct {
		fixture string
		want    facts.MlxLink
		fields  map[string]string
	}{
		// Case 017: trailing spaces after every value; the FDR cable caps the link at FDR.
		{fdr, facts.MlxLink{
			PortType: "NETWORK", State: "Active", PhysicalState: "LinkUp", Speed: "IB-FDR", WidthLanes: ip(4), FEC: "No FEC",
			EnabledLinkSpeed: "FDR,FDR10,QDR,DDR,SDR", SupportedCableSpeed: "FDR,FDR10,QDR,DDR,SDR",
			StatusOpcode: ip(0), GroupOpcode: "N/A", Recommendation: "No issue was observed", FirmwareVersion: "12.28.2040",
			Evidence: facts.EvidenceMap{
				"firmware_version": e(fdr, 24),
				"state":            e(fdr, 3), "physical_state": e(fdr, 4), "speed": e(fdr, 5), "width_lanes": e(fdr, 6), "fec": e(fdr, 7),
				"enabled_link_speed": e(fdr, 13), "supported_cable_speed": e(fdr, 14),
				"status_opcode": e(fdr, 18), "group_opcode": e(fdr, 19), "recommendation": e(fdr, 20),
			},
		}, map[string]string{"Tool Information/Firmware Version": "12.28.2040", "Operational Info/Auto Negotiation": "ON"}},
		// Case 007: the PCIe view of a Gen4 x16 card running at Gen1 x4.
		{pcie, facts.MlxLink{
			PortType: "PCIE", PCIeSpeedActive: "2.5G-Gen 1", PCIeSpeedEnabled: "16G-Gen 4",
			PCIeWidthActive: ip(4), PCIeWidthEnabled: ip(16),
			Evidence: facts.EvidenceMap{
				"pcie_speed_active": e(pcie, 5), "pcie_speed_enabled": e(pcie, 5),
				"pcie_width_active": e(pcie, 6), "pcie_width_enabled": e(pcie, 6),
			},
		}, map[string]string{"PCIe Operational (Enabled) Info/Depth, pcie index, node": "0, 0, 0"}},
		// mlxlink -m -c on a BlueField-3: "(Ext.)" speed keys and the Module Info section.
		{bf3, facts.MlxLink{
			PortType: "NETWORK", State: "Active", PhysicalState: "LinkUp", Speed: "100G", WidthLanes: ip(4),
			FEC: "Standard RS-FEC - RS(528,514)", EnabledLinkSpeed: "100G_4X", SupportedCableSpeed: "100G_4X,50G_2X,40G,25G,10G,1G",
			StatusOpcode: ip(0), GroupOpcode: "N/A", Recommendation: "No issue was observed",
			FirmwareVersion: "32.43.2402",
			CableIdentifier: "QSFP28", CableType: "Passive copper cable", CableVendor: "FS", CablePN: "Q28-PC03", CableLength: "3",
			Evidence: facts.EvidenceMap{
				"state": e(bf3, 4), "physical_state": e(bf3, 5), "speed": e(bf3, 6), "width_lanes": e(bf3, 7), "fec": e(bf3, 8),
				"enabled_link_speed": e(bf3, 14), "supported_cable_speed": e(bf3, 15),
				"status_opcode": e(bf3, 19), "group_opcode": e(bf3, 20), "recommendation": e(bf3, 21),
				"cable_identifier": e(bf3, 36), "cable_type": e(bf3, 39), "cable_vendor": e(bf3, 41), "cable_pn": e(bf3, 42),
				"cable_length": e(bf3, 46), "firmware_version": e(bf3, 25),
			},
		}, map[string]string{"Physical Counters and BER Info/Link Down Counter": "0", "Module Info/Compliance": "100GBASE-CR4, 25GBASE-CR CA-25G-L or 50GBASE-CR2 with RS (Clause91) FEC"}},
		{edr, facts.MlxLink{
			PortType: "NETWORK", State: "Active", PhysicalState: "LinkUp", Speed: "IB-EDR", WidthLanes: ip(4),
			FEC: "Standard LL RS-FEC - RS(271,257)", EnabledLinkSpeed: "EDR,FDR,SDR", SupportedCableSpeed: "EDR,FDR,FDR10,QDR,DDR,SDR",
			StatusOpcode: ip(0), GroupOpcode: "N/A", Recommendation: "No issue was observed",
			Evidence: facts.EvidenceMap{
				"state": e(edr, 4), "physical_state": e(edr, 5), "speed": e(edr, 6), "width_lanes": e(edr, 7), "fec": e(edr, 8),
				"enabled_link_speed": e(edr, 14), "supported_cable_speed": e(edr, 15),
				"status_opcode": e(edr, 19), "group_opcode": e(edr, 20), "recommendation": e(edr, 21),
				"firmware_version": e(edr, 25),
			},
			FirmwareVersion: "32.47.1088",
		}, map[string]string{"Tool Information/amBER Version": "5.75"}},
		// mlxlink -d mlx5_0 -p 1 on a ConnectX-5 EDR card running 4X SDR: opcode 25, "Cable speed not enabled".
		{sdr, facts.MlxLink{
			PortType: "NETWORK", State: "Active", PhysicalState: "LinkUp", Speed: "IB-SDR", WidthLanes: ip(4), FEC: "No FEC",
			EnabledLinkSpeed: "SDR", SupportedCableSpeed: "SDR",
			StatusOpcode: ip(25), GroupOpcode: "PHY FW", Recommendation: "Cable speed not enabled", FirmwareVersion: "16.35.4506",
			Evidence: facts.EvidenceMap{
				"state": e(sdr, 3), "physical_state": e(sdr, 4), "speed": e(sdr, 5), "width_lanes": e(sdr, 6), "fec": e(sdr, 7),
				"enabled_link_speed": e(sdr, 13), "supported_cable_speed": e(sdr, 14),
				"status_opcode": e(sdr, 18), "group_opcode": e(sdr, 19), "recommendation": e(sdr, 20),
				"firmware_version": e(sdr, 24),
			},
		}, map[string]string{"Tool Information/MFT Version": "mft 4.30.1-113"}},
	} {
		got, err := parse.MlxLink(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got, opts); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
		for k, v := range tc.fields {
			if got.Fields[k] != v {
				t.Errorf("%s: Fields[%q] = %q, want %q", tc.fixture, k, got.Fields[k], v)
			}
		}
	}
}

// TestMlxLinkColour checks that the colour escapes mlxlink prints on a terminal are stripped
// (the captured line, in the shape mlxlink's ANSI output takes, keeps them as evidence).
func TestMlxLinkColour(t *testing.T) {
	b := []byte("Operational Info\n----------------\nState                              : \x1b[1;32mActive\x1b[0m \n")
	got, err := parse.MlxLink(b)
	if err != nil || got.State != "Active" || got.Evidence["state"].Line != 3 {
		t.Errorf("got %+v, %v", got, err)
	}
}

// TestMlxlinkDamagedFirmwareVersion: corpus 056's "Firmware Version : 32.47.1088" with a word in
// place of a number is a problem of its line (the version ties the report to its device), and
// the rest is kept.
func TestMlxlinkDamagedFirmwareVersion(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(fixtures.CorpusDir(t), "056-bf3-ib-mode-linkup-logical-down-no-sm-host-sm-disabled/mlxlink_-d_16.00.0_EXCERPT"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := parse.MlxLink([]byte(strings.Replace(string(b), "32.47.1088", "fifty.47.1088", 1)))
	if ps, ok := parse.AsProblems(err); !ok || len(ps) != 1 || !strings.Contains(ps[0].Why, `Firmware Version "fifty.47.1088": not a version`) {
		t.Fatalf("got %v", err)
	}
	if m.FirmwareVersion != "" || m.State == "" {
		t.Errorf("firmware %q state %q", m.FirmwareVersion, m.State)
	}
}
