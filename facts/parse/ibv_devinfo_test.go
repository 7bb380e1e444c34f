package parse_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestIBVDevInfoEDRVF(t *testing.T) {
	got, err := parse.IBVDevInfo(fixtures.Read(t, "ibv_devinfo/azure-edr-vf.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := parse.IBVDevInfoOutput{Devices: []facts.Device{{
		Name: "mlx5_0", Firmware: "16.23.1020", NodeGUID: "0x00155dfffe33ff5f", SystemImageGUID: "0x98039b03000c6d1e",
		VendorID: "0x02c9", CAType: "MT4120", HardwareVersion: "0x0", BoardID: "MT_0000000010", NumPorts: ibInt(1),
		Evidence: facts.EvidenceMap{
			"name":           ibEv(1, "hca_id:\tmlx5_0"),
			"firmware":       ibEv(3, "\tfw_ver:\t\t\t\t16.23.1020"),
			"node_guid":      ibEv(4, "\tnode_guid:\t\t\t0015:5dff:fe33:ff5f"),
			"sys_image_guid": ibEv(5, "\tsys_image_guid:\t\t\t9803:9b03:000c:6d1e"),
			"vendor_id":      ibEv(6, "\tvendor_id:\t\t\t0x02c9"),
			"ca_type":        ibEv(7, "\tvendor_part_id:\t\t\t4120"),
			"hw_version":     ibEv(8, "\thw_ver:\t\t\t\t0x0"),
			"board_id":       ibEv(9, "\tboard_id:\t\t\tMT_0000000010"),
			"num_ports":      ibEv(10, "\tphys_port_cnt:\t\t\t1"),
		},
		Ports: []facts.Port{{Number: 1, State: "Active", MaxMTU: ibInt(4096), ActiveMTU: ibInt(4096), SMLID: ibInt(1),
			LID: ibInt(780), LMC: ibInt(0), LinkLayer: "InfiniBand",
			Evidence: facts.EvidenceMap{
				"number":     ibEv(11, "\t\tport:\t1"),
				"state":      ibEv(12, "\t\t\tstate:\t\t\tPORT_ACTIVE (4)"),
				"max_mtu":    ibEv(13, "\t\t\tmax_mtu:\t\t4096 (5)"),
				"active_mtu": ibEv(14, "\t\t\tactive_mtu:\t\t4096 (5)"),
				"sm_lid":     ibEv(15, "\t\t\tsm_lid:\t\t\t1"),
				"lid":        ibEv(16, "\t\t\tport_lid:\t\t780"),
				"lmc":        ibEv(17, "\t\t\tport_lmc:\t\t0x00"),
				"link_layer": ibEv(18, "\t\t\tlink_layer:\t\tInfiniBand"),
			}}},
	}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestIBVDevInfoVerboseGIDs(t *testing.T) {
	got, err := parse.IBVDevInfo(fixtures.Read(t, "ibv_devinfo/cx4lx-roce-verbose-gids.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Devices) != 1 || len(got.Devices[0].Ports) != 1 {
		t.Fatalf("got %d devices", len(got.Devices))
	}
	p := got.Devices[0].Ports[0]
	want := []facts.GID{
		{Index: 0, GID: "fe80:0000:0000:0000:0ac0:ebff:fe3b:353c", Evidence: ibEv(166, "                        GID[  0]:               fe80:0000:0000:0000:0ac0:ebff:fe3b:353c")},
		{Index: 1, GID: "fe80:0000:0000:0000:0ac0:ebff:fe3b:353c", Evidence: ibEv(167, "                        GID[  1]:               fe80:0000:0000:0000:0ac0:ebff:fe3b:353c")},
		{Index: 2, GID: "0000:0000:0000:0000:0000:ffff:c0a8:f238", IPv4: "192.168.242.56", Evidence: ibEv(168, "                        GID[  2]:               0000:0000:0000:0000:0000:ffff:c0a8:f238")},
		{Index: 3, GID: "0000:0000:0000:0000:0000:ffff:c0a8:f238", IPv4: "192.168.242.56", Evidence: ibEv(169, "                        GID[  3]:               0000:0000:0000:0000:0000:ffff:c0a8:f238")},
	}
	if diff := cmp.Diff(want, p.GIDs); diff != "" {
		t.Errorf("GIDs (-want +got):\n%s", diff)
	}
	sum := []any{p.State, p.PhysicalState, *p.WidthLanes, p.LaneSpeed, *p.RateGbps, *p.ActiveMTU, p.CapabilityMask, *p.IsSMDisabled, p.SubnetPrefix, p.LinkLayer}
	wantSum := []any{"Active", "LinkUp", 1, "QDR", 10.0, 1024, "0x04010000", false, "fe80:0000:0000:0000", "Ethernet"}
	if diff := cmp.Diff(wantSum, sum); diff != "" {
		t.Errorf("port (-want +got):\n%s", diff)
	}
}

type ibvSummary struct {
	Dev, CAType, State, Phys, Lane, GID0 string
	Port                                 int
	Width                                *int
	Rate                                 *float64
}

func TestIBVDevInfoCaptures(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    []ibvSummary
	}{
		// Unindented paste with banner lines (corpus 048).
		{"ibv_devinfo/mthca-unindented.txt", []ibvSummary{{Dev: "mthca0", CAType: "MT25204", Port: 1, State: "Active"}}},
		// grep-filtered -v without "port:" lines: keys go to port 1 (corpus 056).
		{"ibv_devinfo/bf3-filtered-no-port-line.txt", []ibvSummary{
			{Dev: "mlx5_0", CAType: "MT41692", Port: 1, State: "Down", Phys: "LinkUp", Width: ibInt(4), Lane: "EDR", Rate: ibF64(100)},
			{Dev: "mlx5_1", CAType: "MT41692", Port: 1, State: "Down", Phys: "LinkUp", Width: ibInt(4), Lane: "EDR", Rate: ibF64(100)},
		}},
		// GID value wrapped onto the next line (corpus 118).
		{"ibv_devinfo/mlx4-verbose-wrapped-gid.txt", []ibvSummary{
			{Dev: "mlx4_0", CAType: "MT25418", Port: 1, State: "Active", Phys: "LinkUp", Width: ibInt(4), Lane: "DDR", Rate: ibF64(20), GID0: "fe80:0000:0000:0000:0018:8b90:97fe:1b6e"},
			{Dev: "mlx4_0", CAType: "MT25418", Port: 2, State: "Down", Phys: "Polling", Width: ibInt(4), Lane: "SDR", Rate: ibF64(10), GID0: "fe80:0000:0000:0000:0018:8b90:97fe:1b6f"},
		}},
		// "Device ports:" heading, a second port on Ethernet.
		{"ibv_devinfo/mlx4-device-ports.txt", []ibvSummary{
			{Dev: "mlx4_0", CAType: "MT4099", Port: 1, State: "Active"},
			{Dev: "mlx4_0", CAType: "MT4099", Port: 2, State: "Down"},
		}},
		// Capture cut after "port: 1".
		{"ibv_devinfo/vf-port-cut.txt", []ibvSummary{{Dev: "mlx5_1", CAType: "MT4124", Port: 1}}},
		// An excerpt without hca_id names no device.
		{"ibv_devinfo/width-speed-excerpt.txt", nil},
	} {
		out, err := parse.IBVDevInfo(fixtures.Read(t, tc.fixture))
		if _, partial := parse.AsProblems(err); partial && tc.fixture == "ibv_devinfo/vf-port-cut.txt" {
			// The cut is named (the port block has no state line); the device and port are kept.
		} else if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		var got []ibvSummary
		for _, d := range out.Devices {
			for _, p := range d.Ports {
				s := ibvSummary{Dev: d.Name, CAType: d.CAType, Port: p.Number, State: p.State, Phys: p.PhysicalState, Width: p.WidthLanes, Lane: p.LaneSpeed, Rate: p.RateGbps}
				if len(p.GIDs) > 0 {
					s.GID0 = p.GIDs[0].GID
				}
				got = append(got, s)
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func TestIBVDevInfoRefusalAndMessages(t *testing.T) {
	got, err := parse.IBVDevInfo(fixtures.Read(t, "ibv_devinfo/no-userspace-driver.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := parse.IBVDevInfoOutput{
		Refusal: &facts.ToolRefusal{Tool: "ibv_devinfo", Message: "No IB devices found", Evidence: ibEv(3, "No IB devices found")},
		Messages: []facts.ToolRefusal{
			{Tool: "ibv_devinfo", Message: "libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs1",
				Evidence: ibEv(1, "libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs1")},
			{Tool: "ibv_devinfo", Message: "libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0",
				Evidence: ibEv(2, "libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0")},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	got, err = parse.IBVDevInfo(fixtures.Read(t, "ibv_devinfo/failed-to-open-vfs.txt"))
	// each device that could not be opened is named: its ports are unknown, not checked
	if ps, ok := parse.AsProblems(err); !ok || len(ps) != 8 || ps[0].Line != 1 || !strings.Contains(ps[0].Why, "could not open") {
		t.Fatalf("want the 8 devices not opened named, got %v", err)
	}
	if len(got.Devices) != 1 || got.Devices[0].Name != "mlx4_2" || got.Refusal != nil || len(got.Messages) != 8 {
		t.Errorf("got %d devices, refusal %v, %d messages; want mlx4_2, none, 8", len(got.Devices), got.Refusal, len(got.Messages))
	}
}

func FuzzIBVDevInfo(f *testing.F) {
	ibSeed(f, "ibv_devinfo")
	f.Fuzz(func(t *testing.T, b []byte) {
		parse.IBVDevInfo(b) //nolint:errcheck // only panics matter here
	})
}

// TestIBVDevInfoIntelIRDMA: an Intel E810's irdma device (fixtures/ibv_devinfo PROVENANCE)
// reports vendor_id 0x8086, kept as the device's VendorID; its vendor_part_id 5522 is not made
// an "MT5522" CA type, a name of Mellanox adapters only.
func TestIBVDevInfoIntelIRDMA(t *testing.T) {
	out, err := parse.IBVDevInfo(fixtures.Read(t, "ibv_devinfo/irdma-e810-verbose.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Devices) != 1 {
		t.Fatalf("%d devices, want 1", len(out.Devices))
	}
	d := out.Devices[0]
	if d.Name != "irdma1" || d.VendorID != "0x8086" || d.CAType != "" || d.Firmware != "1.54" {
		t.Errorf("name %q vendor_id %q ca_type %q fw %q; want irdma1 0x8086, no CA type, 1.54", d.Name, d.VendorID, d.CAType, d.Firmware)
	}
	if got, want := d.Evidence["vendor_id"], ibEv(6, "        vendor_id:                      0x8086"); got != want {
		t.Errorf("vendor_id evidence %+v, want %+v", got, want)
	}
	if len(d.Ports) != 1 || d.Ports[0].State != "Active" || d.Ports[0].LinkLayer != "Ethernet" {
		t.Errorf("ports %+v, want one Active Ethernet port", d.Ports)
	}
}
