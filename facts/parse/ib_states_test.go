package parse_test

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// Values below are verbatim from the corpus captures named in the fixtures' PROVENANCE.md files.

func TestPortStateRenderings(t *testing.T) {
	for in, want := range map[string]string{
		"4: ACTIVE": "Active", "2: INIT": "Initializing", "1: DOWN": "Down", // sysfs, ibstatus
		"PORT_ACTIVE (4)": "Active", "PORT_DOWN (1)": "Down", // ibv_devinfo
		"ACTIVE": "Active", "DOWN": "Down", // rdma link
		"Initializing": "Initializing", "Active": "Active", // ibstat
	} {
		got, ok := parse.PortState(in)
		if !ok || got != want {
			t.Errorf("PortState(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if got, ok := parse.PortState("0: NOP"); ok {
		t.Errorf("PortState(0) = %q, want not ok", got)
	}
}

func TestPhysicalStateRenderings(t *testing.T) {
	for in, want := range map[string]string{
		"5: LinkUp": "LinkUp", "3: Disabled": "Disabled", "2: Polling": "Polling",
		"4: PortConfigurationTraining": "PortConfigurationTraining",
		"LINK_UP (5)":                  "LinkUp", "POLLING (2)": "Polling", "DISABLED (3)": "Disabled",
		"LINK_UP": "LinkUp", "DISABLED": "Disabled", "LinkUp": "LinkUp",
	} {
		got, ok := parse.PhysicalState(in)
		if !ok || got != want {
			t.Errorf("PhysicalState(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	// Azure ENDURE paravirtual device (corpus 053): not a physical state.
	if got, ok := parse.PhysicalState("0: <unknown>"); ok {
		t.Errorf("PhysicalState(0: <unknown>) = %q, want not ok", got)
	}
}

func ibF64(v float64) *float64 { return &v }
func ibInt(v int) *int         { return &v }
func ibBool(v bool) *bool      { return &v }

func TestSysfsRate(t *testing.T) {
	for in, want := range map[string]parse.Rate{
		"400 Gb/sec (4X NDR)": {Gbps: ibF64(400), WidthLanes: ibInt(4), LaneSpeed: "NDR"},
		"200 Gb/sec (2X NDR)": {Gbps: ibF64(200), WidthLanes: ibInt(2), LaneSpeed: "NDR"},
		"5 Gb/sec (1X DDR)":   {Gbps: ibF64(5), WidthLanes: ibInt(1), LaneSpeed: "DDR"},
		"10 Gb/sec (4X)":      {Gbps: ibF64(10), WidthLanes: ibInt(4)},
	} {
		got, err := parse.SysfsRate(in)
		if err != nil {
			t.Fatalf("SysfsRate(%q): %v", in, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("SysfsRate(%q) (-want +got):\n%s", in, diff)
		}
	}
	if _, err := parse.SysfsRate("N/A"); err == nil {
		t.Error("SysfsRate(N/A): want error")
	}
}

func TestIBStatRate(t *testing.T) {
	for in, want := range map[string]parse.Rate{
		"56": {Gbps: ibF64(56)}, "2.5": {Gbps: ibF64(2.5)}, "40 (FDR10)": {Gbps: ibF64(40), LaneSpeed: "FDR10"},
	} {
		got, err := parse.IBStatRate(in)
		if err != nil {
			t.Fatalf("IBStatRate(%q): %v", in, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("IBStatRate(%q) (-want +got):\n%s", in, diff)
		}
	}
}

func TestGUID(t *testing.T) {
	for in, want := range map[string]string{
		"ec0d:9a03:0044:c34c": "0xec0d9a030044c34c", // sysfs / ibv_devinfo form
		"0xec0d9a030044c34c":  "0xec0d9a030044c34c", // ibstat
		"0000000000000000":    "0x0000000000000000", // ibv_devices, VF without GUID
		"0x2c90200259201":     "0x0002c90200259201", // sminfo prints no padding
	} {
		if got, ok := parse.GUID(in); !ok || got != want {
			t.Errorf("GUID(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if got, ok := parse.GUID("-"); ok {
		t.Errorf("GUID(-) = %q, want not ok", got)
	}
}

func TestSMDisabled(t *testing.T) {
	// 0xa751ec48 (BlueField-3, corpus 056) has bit 10 set; 0x2651e848 (CX-4, corpus 017) has not.
	for in, want := range map[string]bool{"0xa751ec48": true, "0x2651e848": false, "0x0251086a": false} {
		if got, ok := parse.SMDisabled(in); !ok || got != want {
			t.Errorf("SMDisabled(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
}

func TestActiveSpeed(t *testing.T) {
	for in, want := range map[string]string{"25.0 Gbps (32)": "EDR", "10.0 Gbps (8)": "FDR10", "10.0 Gbps (4)": "QDR", "100.0 Gbps (128)": "NDR", "5.0 Gbps (2)": "DDR"} {
		if got, _, ok := parse.ActiveSpeed(in); !ok || got != want {
			t.Errorf("ActiveSpeed(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// ev is evidence of a line as parsers produce it (the builder adds source and path).
func ibEv(line int, text string) facts.Evidence { return facts.Evidence{Line: line, Text: text} }

// ibSeed adds every fixture of a folder to the fuzz corpus.
func ibSeed(f *testing.F, dir string) {
	entries, err := os.ReadDir(fixtures.Path(dir))
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".txt") {
			f.Add(fixtures.Read(f, dir+"/"+e.Name()))
		}
	}
}

func FuzzSysfsRate(f *testing.F) {
	for _, s := range []string{"400 Gb/sec (4X NDR)", "5 Gb/sec (1X DDR)", "10 Gb/sec (4X)", "2.5 Gb/sec (1X SDR)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := parse.SysfsRate(s)
		if err == nil && r.Gbps == nil {
			t.Errorf("%q: no rate and no error", s)
		}
		parse.PortState(s)
		parse.PhysicalState(s)
		parse.GUID(s)
		parse.IBStatRate(s)
		parse.ActiveSpeed(s)
	})
}
