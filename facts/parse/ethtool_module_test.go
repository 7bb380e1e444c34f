package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestEthtoolModule(t *testing.T) {
	sr4 := "100G Ethernet: 100G Base-SR4 or 25GBase-SR"
	fc := []string{"FC: short distance (S)", "FC: Shortwave laser w/o OFC (SN)", "FC: Multimode, 50um (OM3)"}
	mpo := "0x0c (MPO Parallel Optic)"
	for _, tc := range []struct {
		fixture     string
		want        facts.Module
		wantRefusal string
	}{
		{"ethtool_module/qsfp28-sr4-mellanox.txt", facts.Module{Identifier: "QSFP28", IdentifierCode: "0x11", Connector: mpo,
			Compliance: []string{sr4}, NominalBitRateMbps: ip(25500), MaxSpeedGbps: ip(100), LengthM: fp(70),
			VendorName: "Mellanox", VendorPN: "MMA1B00-C100D", VendorSN: "SN0000", VendorRev: "A4", TemperatureC: fp(30.56)}, ""},
		{"ethtool_module/qsfp28-sr4-hisense.txt", facts.Module{Identifier: "QSFP28", IdentifierCode: "0x11", Connector: mpo,
			Compliance: append([]string{sr4}, fc...), NominalBitRateMbps: ip(25500), MaxSpeedGbps: ip(100), LengthM: fp(70),
			VendorName: "Hisense", VendorPN: "LTA8531-PC+", VendorSN: "SN0000", VendorRev: "01", TemperatureC: fp(25.7)}, ""},
		// A dark 40G optic: every DOM reading is zero but no flag is On.
		{"ethtool_module/qsfp-plus-sr4-dark.txt", facts.Module{Identifier: "QSFP+", IdentifierCode: "0x0d", Connector: mpo,
			Compliance: append([]string{"40G Ethernet: 40G Base-SR4"}, fc...), NominalBitRateMbps: ip(10300), MaxSpeedGbps: ip(40),
			LengthM: fp(100), VendorName: "FINISAR CORP", VendorPN: "FTL410QE2C", VendorSN: "SN0000", VendorRev: "A", TemperatureC: fp(30.93)}, ""},
		// An EDR DAC that reports the QSFP+ identifier: the compliance codes still say 100G.
		{"ethtool_module/qsfp-plus-edr-dac.txt", facts.Module{Identifier: "QSFP+", IdentifierCode: "0x0d", Connector: "0x23 (No separable connector)",
			Compliance: []string{"40G Ethernet: 40G Base-CR4", "100G Ethernet: 100G Base-CR4 or 25G Base-CR CA-L"}, NominalBitRateMbps: ip(25500),
			MaxSpeedGbps: ip(100), LengthM: fp(1), VendorName: "Mellanox", VendorPN: "MCP1600-E00A", VendorSN: "SN0000", VendorRev: "A2",
			TemperatureC: fp(0)}, ""},
		{"ethtool_module/qsfp28-dac-40g-excerpt.txt", facts.Module{Identifier: "QSFP28", IdentifierCode: "0x11",
			Compliance: []string{"40G Ethernet: 40G Base-CR4"}, NominalBitRateMbps: ip(25500), MaxSpeedGbps: ip(100), LengthM: fp(1),
			VendorName: "Amphenol", VendorPN: "NJAAKK-N911"}, ""},
		{"ethtool_module/ice-patched-excerpt.txt", facts.Module{Identifier: "QSFP28", IdentifierCode: "0x11", Connector: "0x23 (No separable connector)",
			Compliance: []string{"40G Ethernet: 40G Base-CR4", "25G Ethernet: 25G Base-CR CA-N"}, NominalBitRateMbps: ip(25500),
			MaxSpeedGbps: ip(100), LengthM: fp(1)}, ""},
		{"ethtool_module/ice-hexdump.txt", facts.Module{Unreadable: "hexdump only"}, ""},
		{"ethtool_module/ice-hexdump-offset.txt", facts.Module{Unreadable: "hexdump only"}, ""},
		{"ethtool_module/mlx4-io-error.txt", facts.Module{Unreadable: "Input/output error"}, "Cannot get module EEPROM information: Input/output error"},
	} {
		got, refusal, err := parse.EthtoolModule(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if refusal != tc.wantRefusal {
			t.Errorf("%s: refusal %q, want %q", tc.fixture, refusal, tc.wantRefusal)
		}
		if diff := cmp.Diff(tc.want, got, noEvidence); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func TestEthtoolModuleEvidence(t *testing.T) {
	got, _, err := parse.EthtoolModule(fixtures.Read(t, "ethtool_module/qsfp28-dac-40g-excerpt.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := facts.EvidenceMap{
		"identifier":            ev(1, "Identifier                                : 0x11 (QSFP28)"),
		"compliance":            ev(2, "Transceiver type                          : 40G Ethernet: 40G Base-CR4"),
		"max_speed_gbps":        ev(2, "Transceiver type                          : 40G Ethernet: 40G Base-CR4"),
		"nominal_bit_rate_mbps": ev(4, "BR, Nominal                               : 25500Mbps"),
		"length_m":              ev(5, "Length (Copper or Active cable)           : 1m"),
		"vendor_name":           ev(7, "Vendor name                               : Amphenol"),
		"vendor_pn":             ev(8, "Vendor PN                                 : NJAAKK-N911"),
	}
	if diff := cmp.Diff(want, got.Evidence); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
