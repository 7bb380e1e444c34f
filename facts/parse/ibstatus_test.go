package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestIBStatusEDRTabs(t *testing.T) {
	got, err := parse.IBStatus(fixtures.Read(t, "ibstatus/azure-edr-vf-tabs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := []facts.Device{{Name: "mlx5_0",
		Evidence: facts.EvidenceMap{"name": ibEv(1, "Infiniband device 'mlx5_0' port 1 status:")},
		Ports: []facts.Port{{Number: 1, SubnetPrefix: "fe80:0000:0000:0000", LID: ibInt(0x30c), SMLID: ibInt(1),
			State: "Active", PhysicalState: "LinkUp", RateGbps: ibF64(100), WidthLanes: ibInt(4), LaneSpeed: "EDR",
			LinkLayer: "InfiniBand",
			Evidence: facts.EvidenceMap{
				"number":         ibEv(1, "Infiniband device 'mlx5_0' port 1 status:"),
				"subnet_prefix":  ibEv(2, "\tdefault gid:\t fe80:0000:0000:0000:0015:5dff:fd33:ff5f"),
				"lid":            ibEv(3, "\tbase lid:\t 0x30c"),
				"sm_lid":         ibEv(4, "\tsm lid:\t\t 0x1"),
				"state":          ibEv(5, "\tstate:\t\t 4: ACTIVE"),
				"physical_state": ibEv(6, "\tphys state:\t 5: LinkUp"),
				"rate_gbps":      ibEv(7, "\trate:\t\t 100 Gb/sec (4X EDR)"),
				"width_lanes":    ibEv(7, "\trate:\t\t 100 Gb/sec (4X EDR)"),
				"lane_speed":     ibEv(7, "\trate:\t\t 100 Gb/sec (4X EDR)"),
				"link_layer":     ibEv(8, "\tlink_layer:\t InfiniBand"),
			}}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

type rateSummary struct {
	Dev, State, Phys, Lane, LinkLayer string
	Port                              int
	Rate                              *float64
	Width                             *int
}

func TestIBStatusCaptures(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    []rateSummary
	}{
		// Ethernet via a QSA adapter reports "1X QDR" (corpus 107).
		{"ibstatus/cx2-eth-1x-qdr.txt", []rateSummary{
			{Dev: "mlx4_0", Port: 1, State: "Active", Phys: "LinkUp", Rate: ibF64(10), Width: ibInt(1), Lane: "QDR", LinkLayer: "Ethernet"},
			{Dev: "mlx4_0", Port: 2, State: "Active", Phys: "LinkUp", Rate: ibF64(10), Width: ibInt(1), Lane: "QDR", LinkLayer: "Ethernet"},
		}},
		// No link_layer lines; "10 Gb/sec (4X)" without a speed name on a training port.
		{"ibstatus/ddr-port-training.txt", []rateSummary{
			{Dev: "mlx4_0", Port: 1, State: "Down", Phys: "PortConfigurationTraining", Rate: ibF64(10), Width: ibInt(4)},
			{Dev: "mlx4_0", Port: 2, State: "Active", Phys: "LinkUp", Rate: ibF64(20), Width: ibInt(4), Lane: "DDR"},
		}},
		{"ibstatus/ddr-port2-init.txt", []rateSummary{
			{Dev: "mlx4_0", Port: 1, State: "Active", Phys: "LinkUp", Rate: ibF64(20), Width: ibInt(4), Lane: "DDR"},
			{Dev: "mlx4_0", Port: 2, State: "Initializing", Phys: "LinkUp", Rate: ibF64(20), Width: ibInt(4), Lane: "DDR"},
		}},
		{"ibstatus/dual-hca-ddr-polling.txt", []rateSummary{
			{Dev: "mlx4_0", Port: 1, State: "Active", Phys: "LinkUp", Rate: ibF64(20), Width: ibInt(4), Lane: "DDR"},
			{Dev: "mlx4_0", Port: 2, State: "Down", Phys: "Polling", Rate: ibF64(10), Width: ibInt(4)},
			{Dev: "mlx4_1", Port: 1, State: "Active", Phys: "LinkUp", Rate: ibF64(20), Width: ibInt(4), Lane: "DDR"},
			{Dev: "mlx4_1", Port: 2, State: "Down", Phys: "Polling", Rate: ibF64(10), Width: ibInt(4)},
		}},
		{"ibstatus/roce-ndr.txt", []rateSummary{
			{Dev: "mlx5_0", Port: 1, State: "Active", Phys: "LinkUp", Rate: ibF64(400), Width: ibInt(4), Lane: "NDR", LinkLayer: "Ethernet"},
			{Dev: "mlx5_1", Port: 1, State: "Active", Phys: "LinkUp", Rate: ibF64(400), Width: ibInt(4), Lane: "NDR", LinkLayer: "Ethernet"},
		}},
		{"ibstatus/mlx4-qdr-port2-eth.txt", []rateSummary{
			{Dev: "mlx4_0", Port: 1, State: "Active", Phys: "LinkUp", Rate: ibF64(40), Width: ibInt(4), Lane: "QDR", LinkLayer: "InfiniBand"},
			{Dev: "mlx4_0", Port: 2, State: "Down", Phys: "Disabled", Rate: ibF64(10), Width: ibInt(1), Lane: "QDR", LinkLayer: "Ethernet"},
		}},
	} {
		devs, err := parse.IBStatus(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		var got []rateSummary
		for _, d := range devs {
			for _, p := range d.Ports {
				got = append(got, rateSummary{Dev: d.Name, Port: p.Number, State: p.State, Phys: p.PhysicalState,
					Rate: p.RateGbps, Width: p.WidthLanes, Lane: p.LaneSpeed, LinkLayer: p.LinkLayer})
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func FuzzIBStatus(f *testing.F) {
	ibSeed(f, "ibstatus")
	f.Fuzz(func(t *testing.T, b []byte) {
		parse.IBStatus(b) //nolint:errcheck // only panics matter here
	})
}
