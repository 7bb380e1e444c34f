package parse_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestIBStatNoSM(t *testing.T) {
	got, err := parse.IBStat(fixtures.Read(t, "ibstat/cx4-back-to-back-no-sm.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := parse.IBStatOutput{Devices: []facts.Device{{
		Name: "ibp4s0", CAType: "MT4115", NumPorts: ibInt(1), Firmware: "12.28.2040", HardwareVersion: "0",
		NodeGUID: "0xec0d9a030044c34c", SystemImageGUID: "0xec0d9a030044c34c",
		Evidence: facts.EvidenceMap{
			"name":           ibEv(1, "CA 'ibp4s0'"),
			"ca_type":        ibEv(2, "        CA type: MT4115"),
			"num_ports":      ibEv(3, "        Number of ports: 1"),
			"firmware":       ibEv(4, "        Firmware version: 12.28.2040"),
			"hw_version":     ibEv(5, "        Hardware version: 0"),
			"node_guid":      ibEv(6, "        Node GUID: 0xec0d9a030044c34c"),
			"sys_image_guid": ibEv(7, "        System image GUID: 0xec0d9a030044c34c"),
		},
		Ports: []facts.Port{{
			Number: 1, State: "Initializing", PhysicalState: "LinkUp", RateGbps: ibF64(56),
			LID: ibInt(65535), LMC: ibInt(0), SMLID: ibInt(0), CapabilityMask: "0x2651e848", IsSMDisabled: ibBool(false),
			PortGUID: "0xec0d9a030044c34c", LinkLayer: "InfiniBand",
			Evidence: facts.EvidenceMap{
				"number":          ibEv(8, "        Port 1:"),
				"state":           ibEv(9, "                State: Initializing"),
				"physical_state":  ibEv(10, "                Physical state: LinkUp"),
				"rate_gbps":       ibEv(11, "                Rate: 56"),
				"lid":             ibEv(12, "                Base lid: 65535"),
				"lmc":             ibEv(13, "                LMC: 0"),
				"sm_lid":          ibEv(14, "                SM lid: 0"),
				"capability_mask": ibEv(15, "                Capability mask: 0x2651e848"),
				"is_sm_disabled":  ibEv(15, "                Capability mask: 0x2651e848"),
				"port_guid":       ibEv(16, "                Port GUID: 0xec0d9a030044c34c"),
				"link_layer":      ibEv(17, "                Link layer: InfiniBand"),
			},
		}},
	}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// portSummary is the part of a port most rules read; it keeps multi-device tables readable.
type portSummary struct {
	Dev, State, Phys, LinkLayer string
	Port                        int
	Rate                        *float64
	LID, SMLID                  *int
	SMDisabled                  *bool
}

func summarise(devs []facts.Device) []portSummary {
	var out []portSummary
	for _, d := range devs {
		for _, p := range d.Ports {
			out = append(out, portSummary{Dev: d.Name, Port: p.Number, State: p.State, Phys: p.PhysicalState,
				LinkLayer: p.LinkLayer, Rate: p.RateGbps, LID: p.LID, SMLID: p.SMLID, SMDisabled: p.IsSMDisabled})
		}
	}
	return out
}

func TestIBStatCaptures(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    []portSummary
		refusal string
	}{
		{"ibstat/mlx4-ddr-port2-polling.txt", []portSummary{
			{Dev: "mlx4_0", Port: 1, State: "Active", Phys: "LinkUp", LinkLayer: "InfiniBand", Rate: ibF64(20), LID: ibInt(3), SMLID: ibInt(3), SMDisabled: ibBool(false)},
			{Dev: "mlx4_0", Port: 2, State: "Down", Phys: "Polling", LinkLayer: "InfiniBand", Rate: ibF64(10), LID: ibInt(0), SMLID: ibInt(0), SMDisabled: ibBool(false)},
		}, ""},
		{"ibstat/vf-down-linkup-lid-65535.txt", []portSummary{
			{Dev: "mlx5_7", Port: 1, State: "Down", Phys: "LinkUp", LinkLayer: "InfiniBand", Rate: ibF64(200), LID: ibInt(65535), SMLID: ibInt(1), SMDisabled: ibBool(true)},
		}, ""},
		// ibwarn debug lines before the output, and a capture cut off after "Rate: 56".
		{"ibstat/mlx4-ibwarn-disabled-truncated.txt", []portSummary{
			{Dev: "mlx4_0", Port: 1, State: "Down", Phys: "Disabled", LinkLayer: "InfiniBand", Rate: ibF64(10), LID: ibInt(38), SMLID: ibInt(13), SMDisabled: ibBool(false)},
			{Dev: "mlx4_0", Port: 2, State: "Active", Phys: "LinkUp", Rate: ibF64(56)},
		}, ""},
		// A "---- mlx5_1 ----" separator added by the poster is ignored; IsSMdisabled is set.
		{"ibstat/bf3-separator-line.txt", []portSummary{
			{Dev: "mlx5_0", Port: 1, State: "Down", Phys: "LinkUp", LinkLayer: "InfiniBand", Rate: ibF64(100), LID: ibInt(65535), SMLID: ibInt(0), SMDisabled: ibBool(true)},
			{Dev: "mlx5_1", Port: 1, State: "Down", Phys: "LinkUp", LinkLayer: "InfiniBand", Rate: ibF64(100), LID: ibInt(65535), SMLID: ibInt(0), SMDisabled: ibBool(true)},
		}, ""},
		{"ibstat/ibpanic-netdev-name.txt", nil, "ibpanic: [5896] main: 'ib1' IB device can't be found: No such file or directory"},
	} {
		got, err := parse.IBStat(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, summarise(got.Devices)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
		var refusal string
		if got.Refusal != nil {
			refusal = got.Refusal.Message
		}
		if refusal != tc.refusal {
			t.Errorf("%s: refusal %q, want %q", tc.fixture, refusal, tc.refusal)
		}
	}
}

// ibstat aborted on a vanished 9th device (corpus 002): the 8 ports printed before stay, and the
// ibpanic is a refusal, not a parse error.
func TestIBStatPanicKeepsDevices(t *testing.T) {
	got, err := parse.IBStat(fixtures.Read(t, "ibstat/azure-a100-ibpanic.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Devices) != 8 {
		t.Fatalf("got %d devices, want 8", len(got.Devices))
	}
	for _, d := range got.Devices {
		if d.Ports[0].State != "Active" || *d.Ports[0].RateGbps != 200 {
			t.Errorf("%s: %s %v, want Active 200", d.Name, d.Ports[0].State, *d.Ports[0].RateGbps)
		}
	}
	want := &facts.ToolRefusal{Message: "ibpanic: [1400444] main: stat of IB device 'mlx5_8' failed: No such file or directory",
		Evidence: ibEv(137, "ibpanic: [1400444] main: stat of IB device 'mlx5_8' failed: No such file or directory")}
	if diff := cmp.Diff(want, got.Refusal); diff != "" {
		t.Errorf("refusal (-want +got):\n%s", diff)
	}
}

func TestIBStatMalformedRate(t *testing.T) {
	_, err := parse.IBStat([]byte("CA 'mlx5_0'\n\tPort 1:\n\t\tRate: fast\n"))
	ps, ok := parse.AsProblems(err)
	if !ok || ps.Error() != `line 3: "\t\tRate: fast": rate "fast": not a number (and 2 more)` {
		t.Errorf("err = %v", err)
	}
}

func FuzzIBStat(f *testing.F) {
	ibSeed(f, "ibstat")
	f.Fuzz(func(t *testing.T, b []byte) {
		parse.IBStat(b) //nolint:errcheck // only panics matter here
	})
}

// TestIBStatMalformedValueKeepsTheRest: one bad value (a real capture with its first Rate
// corrupted) loses that field only; the error names its line.
func TestIBStatMalformedValueKeepsTheRest(t *testing.T) {
	good := fixtures.Read(t, "ibstat/h100-ndr-eth-disabled.txt")
	bad := []byte(strings.Replace(string(good), "Rate: 400", "Rate: 5x6", 1))
	want, err := parse.IBStat(good)
	if err != nil {
		t.Fatal(err)
	}
	got, err := parse.IBStat(bad)
	if err == nil || !strings.Contains(err.Error(), "line 11:") {
		t.Fatalf("error %v, want one naming line 11", err)
	}
	if len(got.Devices) != len(want.Devices) {
		t.Fatalf("%d devices, want %d", len(got.Devices), len(want.Devices))
	}
	if r := got.Devices[0].Ports[0].RateGbps; r != nil {
		t.Errorf("rate %v from a malformed line", *r)
	}
	if diff := cmp.Diff(want.Devices[1:], got.Devices[1:]); diff != "" {
		t.Errorf("other devices changed (-want +got):\n%s", diff)
	}
}

// TestQuotedCANames: a CA name holding quotes and shell characters (the real capture of
// ibstat/cx4-back-to-back-no-sm.txt and ibstatus/azure-edr-vf-tabs.txt with the name edited) is
// read whole, not dropped: the name is what fix commands will quote.
func TestQuotedCANames(t *testing.T) {
	const name = "a'b|c`d` -rf *"
	st, err := parse.IBStat(bytes.Replace(fixtures.Read(t, "ibstat/cx4-back-to-back-no-sm.txt"), []byte("CA 'ibp4s0'"), []byte("CA '"+name+"'"), 1))
	if err != nil || len(st.Devices) == 0 || st.Devices[0].Name != name {
		t.Errorf("ibstat: devices %+v, err %v; want %q first", st.Devices, err, name)
	}
	src := fixtures.Read(t, "ibstatus/azure-edr-vf-tabs.txt")
	m := regexp.MustCompile(`Infiniband device '([^']+)'`).FindSubmatch(src)
	if m == nil {
		t.Fatal("fixture has no Infiniband device line")
	}
	ibs, err := parse.IBStatus(bytes.ReplaceAll(src, m[0], []byte("Infiniband device '"+name+"'")))
	if len(ibs) == 0 || ibs[0].Name != name {
		t.Errorf("ibstatus: devices %+v, err %v; want %q first", ibs, err, name)
	}
}

// TestIBStatBadCAHeader: a CA header that does not parse (corpus 017's real block after a
// healthy one, its header edited to lose its quotes) is named, and the block's port is not read
// as a second port 1 of the CA before it.
func TestIBStatBadCAHeader(t *testing.T) {
	healthy := fixtures.Read(t, "ibstat/cx4-back-to-back-no-sm.txt")
	broken := bytes.Replace(fixtures.Read(t, "corpus/017-cx4-back-to-back-linkup-initializing-no-sm-fdr-cable/ibstat"), []byte("CA 'ibp4s0'"), []byte("CA mlx5_1"), 1)
	out, err := parse.IBStat(append(append([]byte{}, healthy...), broken...))
	ps, ok := parse.AsProblems(err)
	if !ok {
		t.Fatalf("err = %v, want the bad header named", err)
	}
	named := false
	for _, p := range ps {
		named = named || strings.Contains(p.Why, "not a CA header")
	}
	if !named || len(out.Devices) != 1 || len(out.Devices[0].Ports) != 1 {
		t.Errorf("problems %v; devices %+v: want the header named and one device with its one port", ps, out.Devices)
	}
}
