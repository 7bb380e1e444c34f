package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestEthtool(t *testing.T) {
	cx4Modes := []string{"1000baseKX/Full", "10000baseKR/Full", "40000baseKR4/Full", "40000baseCR4/Full", "40000baseSR4/Full",
		"40000baseLR4/Full", "56000baseKR4/Full", "25000baseCR/Full", "25000baseKR/Full", "25000baseSR/Full", "50000baseCR2/Full",
		"50000baseKR2/Full", "100000baseKR4/Full", "100000baseSR4/Full", "100000baseCR4/Full", "100000baseLR4_ER4/Full"}
	cx3Modes := []string{"1000baseX/Full", "10000baseCR/Full", "10000baseSR/Full"}
	for _, tc := range []struct {
		fixture string
		want    facts.Netdev
	}{
		{"ethtool/cx4-100g-dac.txt", facts.Netdev{Name: "enp1s0np0", Kind: "ethernet", SpeedMbps: ip(100000), Duplex: "Full",
			PortType: "Direct Attach Copper", LinkDetected: bp(true), SupportedLinkModes: cx4Modes, AdvertisedLinkModes: cx4Modes,
			MaxSupportedSpeedMbps: ip(100000)}},
		// "Current message level" continues on a line of its own; it is not a link mode.
		{"ethtool/cx3-10g-msglevel.txt", facts.Netdev{Name: "enp1s0", Kind: "ethernet", SpeedMbps: ip(10000), Duplex: "Full",
			PortType: "Direct Attach Copper", LinkDetected: bp(true), SupportedLinkModes: cx3Modes, AdvertisedLinkModes: cx3Modes,
			MaxSupportedSpeedMbps: ip(10000)}},
		{"ethtool/azure-netdirect.txt", facts.Netdev{Name: "eth1", Kind: "ethernet", SpeedMbps: ip(54000), Duplex: "Full",
			PortType: "Other", LinkDetected: bp(true)}},
		{"ethtool/veth-pod.txt", facts.Netdev{Name: "eth0", Kind: "ethernet", SpeedMbps: ip(10000), Duplex: "Full",
			PortType: "Twisted Pair", LinkDetected: bp(true)}},
		{"ethtool/ipoib-speed-unknown.txt", facts.Netdev{Name: "ib0", Kind: "ipoib", Duplex: "Full", PortType: "Other", LinkDetected: bp(false)}},
		{"ethtool/ipoib-netlink-einval.txt", facts.Netdev{Name: "ib0", LinkDetected: bp(false),
			EthtoolRefusal: "netlink error: failed to retrieve link settings: Invalid argument"}},
		// A non-root "Operation not permitted" (wake-on-lan) is not a refusal of the settings.
		{"ethtool/ipoib-hdr100-10g.txt", facts.Netdev{Name: "ib0", Kind: "ipoib", SpeedMbps: ip(10000), Duplex: "Full",
			PortType: "Other", LinkDetected: bp(true)}},
	} {
		got, err := parse.Ethtool(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got, noEvidence); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func TestEthtoolEvidence(t *testing.T) {
	got, err := parse.Ethtool(fixtures.Read(t, "ethtool/ipoib-speed-unknown.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := facts.EvidenceMap{
		"name": ev(1, "Settings for ib0:"), "speed_mbps": ev(11, "Speed: Unknown!"), "duplex": ev(12, "Duplex: Full"),
		"port_type": ev(14, "Port: Other"), "kind": ev(14, "Port: Other"), "link_detected": ev(17, "Link detected: no"),
		"supported_link_modes": ev(3, "Supported link modes:   Not reported"), "advertised_link_modes": ev(7, "Advertised link modes:  Not reported"),
	}
	if diff := cmp.Diff(want, got.Evidence); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestEthtoolDriver(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    facts.Netdev
	}{
		{"ethtool_driver/mlx5-ipoib-psid.txt", facts.Netdev{Kind: "ipoib", Driver: "mlx5_core[ib_ipoib]", DriverVersion: "4.9-5.1.0",
			FirmwareVersion: "20.30.1004", FirmwarePSID: "MT_0000000226", BusInfo: "0000:b1:00.1", PCIAddress: "0000:b1:00.1"}},
		{"ethtool_driver/mlx4-en.txt", facts.Netdev{Driver: "mlx4_en", DriverVersion: "4.0-0", FirmwareVersion: "2.42.5000",
			BusInfo: "0000:01:00.0", PCIAddress: "0000:01:00.0"}},
		{"ethtool_driver/veth.txt", facts.Netdev{Driver: "veth", DriverVersion: "1.0"}},
	} {
		got, refusal, err := parse.EthtoolDriver(fixtures.Read(t, tc.fixture))
		if err != nil || refusal != "" {
			t.Fatalf("%s: %v %q", tc.fixture, err, refusal)
		}
		if diff := cmp.Diff(tc.want, got, noEvidence); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func TestEthtoolPause(t *testing.T) {
	for _, f := range []string{"ethtool_pause/cx2-ens5.txt", "ethtool_pause/cx2-no-header.txt"} {
		got, evs, refusal, err := parse.EthtoolPause(fixtures.Read(t, f))
		if err != nil || refusal != "" {
			t.Fatalf("%s: %v %q", f, err, refusal)
		}
		if diff := cmp.Diff(&facts.PauseParams{Autoneg: bp(false), RX: bp(true), TX: bp(true)}, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", f, diff)
		}
		if len(evs) != 3 {
			t.Errorf("%s: evidence %v", f, evs)
		}
	}
}

func TestEthtoolFEC(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    *facts.FECParams
	}{
		{"ethtool_fec/dgx-spark-auto-rs.txt", &facts.FECParams{Configured: []string{"Auto"}, Active: "RS"}},
		{"ethtool_fec/fbnic-rs-statistics.txt", &facts.FECParams{Configured: []string{"RS"}, Active: "RS"}},
	} {
		got, _, refusal, err := parse.EthtoolFEC(fixtures.Read(t, tc.fixture))
		if err != nil || refusal != "" {
			t.Fatalf("%s: %v %q", tc.fixture, err, refusal)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func TestEthtoolStats(t *testing.T) {
	got, evs, refusal, err := parse.EthtoolStats(fixtures.Read(t, "ethtool_stats/mlx5-xdp-kernel-5.15.txt"))
	if err != nil || refusal != "" {
		t.Fatalf("%v %q", err, refusal)
	}
	want := map[string]int64{"rx_discards_phy": 58591428329, "tx_global_pause": 5745042, "rx_out_of_buffer": 990473555, "tx_bytes": 2070}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %d, want %d", k, got[k], v)
		}
	}
	if e := evs["stats.rx_discards_phy"]; e.Text != "     rx_discards_phy: 58591428329" {
		t.Errorf("evidence %+v", e)
	}
	if len(got) != 101 || len(evs) != 101 { // every line but the title
		t.Errorf("%d counters, %d evidence entries", len(got), len(evs))
	}
}
