package parse_test

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// sysfsFiles reads every file of a captured device directory, as the gather spec would.
func sysfsFiles(t *testing.T, tree, dev string) []parse.SysfsFile {
	t.Helper()
	fsys := os.DirFS(fixtures.Path("sysfs_infiniband/" + tree))
	dir := "sys/class/infiniband/" + dev
	var files []parse.SysfsFile
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files = append(files, parse.SysfsFile{Rel: strings.TrimPrefix(p, dir+"/"), Path: p, Value: string(b)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func fileEv(p, text string) facts.Evidence { return facts.Evidence{Path: p, Text: text} }

// A dual-port ConnectX-3 tree (corpus 038): ports, counters, and a link_layer file with a blank
// second line.
func TestSysfsDeviceCX3(t *testing.T) {
	got, problems := parse.SysfsDevice("mlx4_0", sysfsFiles(t, "038", "mlx4_0"))
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	d := "sys/class/infiniband/mlx4_0/"
	if diff := cmp.Diff(facts.EvidenceMap{
		"board_id": fileEv(d+"board_id", "SM_1141000001000"),
		"firmware": fileEv(d+"fw_ver", "2.31.5050"),
		"ca_type":  fileEv(d+"hca_type", "MT4099"),
	}, got.Evidence); diff != "" {
		t.Errorf("device evidence (-want +got):\n%s", diff)
	}
	if got.BoardID != "SM_1141000001000" || got.Firmware != "2.31.5050" || got.CAType != "MT4099" || len(got.Ports) != 2 {
		t.Fatalf("got %+v", got)
	}
	p2 := got.Ports[1]
	p2.Counters, p2.Evidence = nil, nil
	want := facts.Port{Number: 2, State: "Active", PhysicalState: "LinkUp", RateGbps: ibF64(40), WidthLanes: ibInt(4), LaneSpeed: "QDR", LinkLayer: "InfiniBand"}
	if diff := cmp.Diff(want, p2); diff != "" {
		t.Errorf("port 2 (-want +got):\n%s", diff)
	}
	if n := len(got.Ports[0].Counters); n != 17 {
		t.Errorf("port 1: %d counters, want 17", n)
	}
	if ev := got.Ports[1].Evidence["link_layer"]; ev != fileEv(d+"ports/2/link_layer", "InfiniBand") {
		t.Errorf("link_layer evidence %+v", ev)
	}
}

// The Azure paravirtual device (corpus 053) reports phys_state "0: <unknown>": no physical
// state, and not a problem.
func TestSysfsDeviceUnknownPhysState(t *testing.T) {
	got, problems := parse.SysfsDevice("DEV", sysfsFiles(t, "053", "DEV"))
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	p := got.Ports[0]
	if p.PhysicalState != "" || p.State != "Active" || *p.RateGbps != 5 || *p.WidthLanes != 1 || p.LaneSpeed != "DDR" {
		t.Errorf("got %+v", p)
	}
}

// One unreadable value (a driver without a PMA prints "N/A (no PMA)", kernel sysfs.c
// show_pma_counter) is a problem; the rest of the device stays.
func TestSysfsDeviceNoPMA(t *testing.T) {
	files := sysfsFiles(t, "005", "mlx5_1")
	for i := range files {
		if path.Base(files[i].Rel) == "symbol_error" {
			files[i].Value = "N/A (no PMA)\n"
		}
	}
	got, problems := parse.SysfsDevice("mlx5_1", files)
	want := []string{`sys/class/infiniband/mlx5_1/ports/1/counters/symbol_error: counter value "N/A (no PMA)"`}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	p := got.Ports[0]
	if _, ok := p.Counters["symbol_error"]; ok {
		t.Error("symbol_error kept")
	}
	if p.Counters["link_downed"] != 255 || p.State != "Active" || *p.RateGbps != 400 || len(p.HWCounters) == 0 {
		t.Errorf("link_downed %d, state %q, rate %v, %d hw counters", p.Counters["link_downed"], p.State, *p.RateGbps, len(p.HWCounters))
	}
}

func TestSysfsDeviceCapMask(t *testing.T) {
	got, problems := parse.SysfsDevice("mlx5_0", sysfsFiles(t, "056", "mlx5_0"))
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	p := got.Ports[0]
	if p.CapabilityMask != "0xa751ec48" || p.IsSMDisabled == nil || !*p.IsSMDisabled || p.State != "Down" || p.PhysicalState != "LinkUp" {
		t.Errorf("got %+v", p)
	}
}

func FuzzSysfsDevice(f *testing.F) {
	for _, v := range []string{"4: ACTIVE", "0: <unknown>", "100 Gb/sec (4X EDR)", "0xa751ec48", "N/A (no PMA)", "fe80:0000:0000:0000:0ac0:ebff:fe3b:353c"} {
		f.Add("ports/1/state", v)
		f.Add("ports/1/gids/0", v)
		f.Add("node_guid", v)
	}
	f.Fuzz(func(t *testing.T, rel, value string) {
		parse.SysfsDevice("mlx5_0", []parse.SysfsFile{{Rel: rel, Path: rel, Value: value}, {Rel: "ports/1/gid_attrs/types/0", Value: value}})
	})
}

// A link_layer file holding anything but what the kernel writes (cut, a line repeated, a byte
// that was not UTF-8, empty) is a problem, and the port keeps no link layer.
func TestSysfsDeviceDamagedLinkLayer(t *testing.T) {
	for _, val := range []string{"I", "InfiniBand\nInfiniBand\n\n", "InfiniB\uFFFDand\n", ""} {
		files := sysfsFiles(t, "038", "mlx4_0")
		for i := range files {
			if files[i].Rel == "ports/1/link_layer" {
				files[i].Value = val
			}
		}
		got, problems := parse.SysfsDevice("mlx4_0", files)
		if len(problems) != 1 || !strings.Contains(problems[0], "ports/1/link_layer") {
			t.Errorf("%q: problems %v, want the link_layer file", val, problems)
		}
		if got.Ports[0].LinkLayer != "" || got.Ports[1].LinkLayer != "InfiniBand" {
			t.Errorf("%q: link layers %q, %q", val, got.Ports[0].LinkLayer, got.Ports[1].LinkLayer)
		}
	}
}

// TestSysfsDamagedValues: corpus 038's mlx4_0 hca_type cut short ("MT40" of "MT4099") and its
// fw_ver with a byte that is not UTF-8 are problems of their files, not a CA type and a
// firmware version that no rule knows.
func TestSysfsDamagedValues(t *testing.T) {
	for _, f := range []parse.SysfsFile{
		{Path: "sys/class/infiniband/mlx4_0/hca_type", Rel: "hca_type", Value: "MT40"},
		{Path: "sys/class/infiniband/mlx4_0/fw_ver", Rel: "fw_ver", Value: "2.31.50\xe950\n"},
	} {
		dev, problems := parse.SysfsDevice("mlx4_0", []parse.SysfsFile{f})
		if len(problems) != 1 || !strings.HasPrefix(problems[0], f.Path+": ") || dev.CAType != "" || dev.Firmware != "" {
			t.Errorf("%s %q: problems %v, device %+v", f.Rel, f.Value, problems, dev)
		}
	}
	if dev, problems := parse.SysfsDevice("mlx4_0", []parse.SysfsFile{{Path: "hca_type", Rel: "hca_type", Value: "MT4099\n"}}); len(problems) != 0 || dev.CAType != "MT4099" {
		t.Errorf("MT4099: %v %+v", problems, dev)
	}
}
