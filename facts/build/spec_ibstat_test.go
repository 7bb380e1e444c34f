package build

import (
	"io/fs"
	"os"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

type devPort struct {
	Name, Capture, State, Phys string
	Rate                       float64
	SMLID                      int
}

func devPorts(s *facts.Snapshot) []devPort {
	var out []devPort
	for _, d := range s.Devices {
		for _, p := range d.Ports {
			dp := devPort{Name: d.Name, Capture: d.Capture, State: p.State, Phys: p.PhysicalState}
			if p.RateGbps != nil {
				dp.Rate = *p.RateGbps
			}
			if p.SMLID != nil {
				dp.SMLID = *p.SMLID
			}
			out = append(out, dp)
		}
	}
	return out
}

func TestBuildIBStatCaptures(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []devPort
	}{
		{"017 no SM", map[string]string{"ibstat": "ibstat/cx4-back-to-back-no-sm.txt"},
			[]devPort{{Name: "ibp4s0", State: "Initializing", Phys: "LinkUp", Rate: 56, SMLID: 0}}},
		// Two nodes' ibstat, same device name: kept apart.
		{"018 two nodes", map[string]string{
			"ibstat_node01": "ibstat/cx4-back-to-back-active-node01.txt",
			"ibstat_node02": "ibstat/cx4-back-to-back-active-node02.txt"},
			[]devPort{
				{Name: "ibp4s0", State: "Active", Phys: "LinkUp", Rate: 56, SMLID: 1},
				{Name: "ibp4s0", Capture: "node02", State: "Active", Phys: "LinkUp", Rate: 56, SMLID: 1}}},
		// Before and after captures of one device stay apart, even though sysfs (applied first)
		// created the device (corpus 112).
		{"112 before and after", map[string]string{
			"ibstat__mlx5_5_initializing":                     "ibstat/pf-initializing.txt",
			"ibstat__mlx5_5_active_later":                     "ibstat/pf-active-later.txt",
			"sys/class/infiniband/mlx5_5/device/mlx5_num_vfs": "sysfs_infiniband/112/sys/class/infiniband/mlx5_5/device/mlx5_num_vfs"},
			[]devPort{
				{Name: "mlx5_5", State: "Active", Phys: "LinkUp", Rate: 200, SMLID: 4},
				{Name: "mlx5_5", Capture: "mlx5_5_initializing", State: "Initializing", Phys: "LinkUp", Rate: 200, SMLID: 0}}},
	} {
		s, err := Snapshot(fixtures.Files(t, tc.files), facts.SourceInfo{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, devPorts(s)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestBuildIBStatEvidenceAndRefusal(t *testing.T) {
	s, err := Snapshot(fixtures.Files(t, map[string]string{
		"ibstat_mlx5_7": "ibstat/vf-down-linkup-lid-65535.txt",
		"ibstat_ib1":    "ibstat/ibpanic-netdev-name.txt",
	}), facts.SourceInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Devices) != 1 || s.Devices[0].Capture != "" {
		t.Fatalf("devices %+v", s.Devices)
	}
	want := facts.Evidence{Source: "ibstat", Path: "ibstat_mlx5_7", Line: 9, Text: "                State: Down"}
	if diff := cmp.Diff(want, s.Devices[0].Ports[0].Evidence["state"]); diff != "" {
		t.Errorf("evidence (-want +got):\n%s", diff)
	}
	var status string
	for _, src := range s.Sources {
		if src.Origin == "ibstat_ib1" {
			status = src.Status
		}
	}
	if status != facts.StatusUnsupported {
		t.Errorf("ibstat_ib1 status %q, want unsupported", status)
	}
	if len(s.Host.Userspace) != 1 || s.Host.Userspace[0].Tool != "ibstat" {
		t.Errorf("userspace %+v", s.Host.Userspace)
	}
}

func TestBuildFabricRefusal(t *testing.T) {
	s, err := Snapshot(fixtures.Files(t, map[string]string{
		"perfquery":     "perfquery/client-register-failed.txt",
		"ibnetdiscover": "ibnetdiscover/client-register-failed.txt",
		"ibstatus":      "ibstatus/roce-ndr.txt",
	}), facts.SourceInfo{})
	if err != nil {
		t.Fatal(err)
	}
	var tools []string
	for _, r := range s.Fabric.Refusals {
		tools = append(tools, r.Tool+": "+r.Evidence.Path)
	}
	if diff := cmp.Diff([]string{"ibnetdiscover: ibnetdiscover", "perfquery: perfquery"}, tools); diff != "" {
		t.Errorf("refusals (-want +got):\n%s", diff)
	}
	if len(s.Devices) != 2 || s.Devices[0].Ports[0].LinkLayer != "Ethernet" {
		t.Errorf("devices %+v", s.Devices)
	}
}

func TestBuildSysfsTree(t *testing.T) {
	s, err := Snapshot(os.DirFS(fixtures.Path("sysfs_infiniband/038")), facts.SourceInfo{})
	if err != nil {
		t.Fatal(err)
	}
	var srcs []facts.Source
	for _, src := range s.Sources {
		if src.Name == "sysfs_infiniband" {
			srcs = append(srcs, src)
		}
	}
	want := []facts.Source{{Name: "sysfs_infiniband", Origin: "sys/class/infiniband/mlx4_0", Status: facts.StatusOK, RecognisedBy: "path"}}
	if diff := cmp.Diff(want, srcs); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	if len(s.Devices) != 1 || len(s.Devices[0].Ports) != 2 {
		t.Fatalf("devices %+v", s.Devices)
	}
	p := s.Devices[0].Ports[0]
	wantEv := facts.Evidence{Source: "sysfs_infiniband", Path: "sys/class/infiniband/mlx4_0/ports/1/counters/symbol_error", Text: "0"}
	if diff := cmp.Diff(wantEv, p.Evidence["counters.symbol_error"]); diff != "" {
		t.Errorf("evidence (-want +got):\n%s", diff)
	}
}

// A counter the driver cannot read makes the device's source partial, listing the file, and
// keeps everything else. The real CX-3 tree (corpus 038) gets one counter replaced by the
// kernel's literal "N/A (no PMA)" (drivers/infiniband/core/sysfs.c show_pma_counter; seen on
// i40iw in prometheus/node_exporter#966).
func TestBuildSysfsUnreadableCounter(t *testing.T) {
	fsys := fstest.MapFS{}
	root := fixtures.Path("sysfs_infiniband/038")
	err := fs.WalkDir(os.DirFS(root), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(os.DirFS(root), p)
		fsys[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fsys["sys/class/infiniband/mlx4_0/ports/2/counters/link_downed"] = &fstest.MapFile{Data: []byte("N/A (no PMA)\n")}
	s, err := Snapshot(fsys, facts.SourceInfo{})
	if err != nil {
		t.Fatal(err)
	}
	var got facts.Source
	for _, src := range s.Sources {
		if src.Name == "sysfs_infiniband" {
			got = src
		}
	}
	want := facts.Source{Name: "sysfs_infiniband", Origin: "sys/class/infiniband/mlx4_0", Status: facts.StatusPartial, RecognisedBy: "path",
		Error: `1 attribute file(s) not read, the rest of the device is: sys/class/infiniband/mlx4_0/ports/2/counters/link_downed: counter value "N/A (no PMA)"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("source (-want +got):\n%s", diff)
	}
	if len(s.Devices) != 1 || s.Devices[0].Ports[1].State != "Active" || len(s.Devices[0].Ports[1].Counters) != 16 {
		t.Errorf("devices %+v", s.Devices)
	}
}
