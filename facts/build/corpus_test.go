package build

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func buildCorpus(t *testing.T, prefix string) *facts.Snapshot {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(fixtures.CorpusDir(t), prefix+"-*"))
	if len(m) != 1 {
		t.Fatalf("corpus case %s: %d folders", prefix, len(m))
	}
	s, err := Snapshot(os.DirFS(m[0]), facts.SourceInfo{Path: m[0]})
	if err != nil {
		t.Fatalf("%s: %v", m[0], err)
	}
	return s
}

// TestCorpusBuilds reads every corpus case: none may fail, and no file may be parsed with an
// error (a file nobody recognises is listed as unrecognized, which is allowed). Partial are only
// the captures that were cut before they were published.
func TestCorpusBuilds(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join(fixtures.CorpusDir(t), "[0-9]*"))
	if len(cases) == 0 {
		t.Fatal("no cases in the corpus")
	}
	for _, c := range cases {
		s, err := Snapshot(os.DirFS(c), facts.SourceInfo{Path: c})
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(c), err)
			continue
		}
		for _, src := range s.Sources {
			cut := cutCaptures[filepath.Base(c)+"/"+src.Origin]
			if src.Status == facts.StatusError || (src.Status == facts.StatusPartial) != cut {
				t.Errorf("%s: %s %s: %s %s", filepath.Base(c), src.Name, src.Origin, src.Status, src.Error)
			}
			quotesItsLine(t, filepath.Join(c, src.Origin), src)
		}
	}
}

// quotesItsLine fails unless each problem of src that names a line of the file at path quotes
// that line, or part of it: a warning must quote the line it is about (line 137 of corpus 002's
// ibstat was once quoted as "").
func quotesItsLine(t *testing.T, path string, src facts.Source) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return // a source of a tree, or of part of a file: no one file to hold it to
	}
	lines := strings.Split(string(data), "\n")
	for _, p := range src.Problems {
		if p.Line <= 0 || p.Line > len(lines) {
			continue
		}
		line := strings.TrimRight(lines[p.Line-1], "\r")
		if strings.TrimSpace(line) != "" && (p.Text == "" || !strings.Contains(line, strings.TrimSpace(p.Text))) {
			t.Errorf("%s: line %d %q quoted as %q (%s)", path, p.Line, line, p.Text, p.Why)
		}
	}
}

// cutCaptures are the corpus files published cut short: they must be read as partial.
var cutCaptures = map[string]bool{
	// show_gids pasted without the closing n_gids_found=N line the script prints: GIDs after the
	// last row are unknown
	"049-roce-bond-and-vxlan-same-ipv4-duplicate-v2-gids/show_gids":                        true,
	"050-k8s-macvlan-pods-sparse-gid-index-differs-per-pod/show_gids_pod1":                 true,
	"050-k8s-macvlan-pods-sparse-gid-index-differs-per-pod/show_gids_pod2":                 true,
	"051-k8s-macvlan-pod-gids-start-at-4-nccl-roce-version-read-fails/show_gids_TRUNCATED": true,
	// ibstat aborted (ibpanic) after 8 CAs: the ones it would have listed next are unknown
	"002-azure-a100-ibstat-ibpanic-missing-device/ibstat": true,
	// lspci without root: `Capabilities: <access denied>`, LnkCap/LnkSta unknown
	"101-cx3-hp544-mstconfig-p1-eth-p2-vpi-opensm-on-eth-port-exits-ipoib-cm-unit-broken/lspci_-v_-s_81_00.0": true,
	"011-k8s-pod-ib-vf-down-linkup-lid-65535/ibv_devinfo":                                                     true, // ends at "port: 1"
	"039-hdr-node-second-hca-disabled-plus-cx4lx-eth/ibstat_TRUNCATED":                                        true, // ends after "Physical state"
	"302-hdr-quantum-switch-ibdiagnet2-net-dump-excerpt-ufm-ndt-docstring/ibdiagnet2.net_dump_EXCERPT":        true, // 8 ports of one switch
}

// TestCorpusFacts checks the facts each CASE.md's diagnosis relies on.
func TestCorpusFacts(t *testing.T) {
	port := func(s *facts.Snapshot, dev string, n int) *facts.Port {
		for i := range s.Devices {
			if s.Devices[i].Name == dev {
				for j := range s.Devices[i].Ports {
					if s.Devices[i].Ports[j].Number == n {
						return &s.Devices[i].Ports[j]
					}
				}
			}
		}
		t.Fatalf("no %s port %d", dev, n)
		return nil
	}
	t.Run("017 no SM: Initializing, LinkUp, rate 56, SM lid 0", func(t *testing.T) {
		p := port(buildCorpus(t, "017"), "ibp4s0", 1)
		if p.State != "Initializing" || p.PhysicalState != "LinkUp" || *p.RateGbps != 56 || *p.SMLID != 0 || *p.LID != 65535 {
			t.Errorf("got %s/%s rate %v sm lid %v lid %v", p.State, p.PhysicalState, *p.RateGbps, *p.SMLID, *p.LID)
		}
	})
	t.Run("056 BF3: LinkUp but Down, IsSMDisabled, LINK_TYPE IB", func(t *testing.T) {
		s := buildCorpus(t, "056")
		p := port(s, "mlx5_0", 1)
		if p.State != "Down" || p.PhysicalState != "LinkUp" || p.IsSMDisabled == nil || !*p.IsSMDisabled {
			t.Errorf("got %s/%s is_sm_disabled %v", p.State, p.PhysicalState, p.IsSMDisabled)
		}
		if len(s.NVConfig) == 0 || s.NVConfig[0].Params["LINK_TYPE_P1"].NextBoot != "IB(1)" {
			t.Errorf("nvconfig %+v", s.NVConfig)
		}
	})
	t.Run("102 Ethernet-only CX-6 Dx: no LINK_TYPE, 16 VFs", func(t *testing.T) {
		s := buildCorpus(t, "102")
		if len(s.NVConfig) != 1 {
			t.Fatalf("nvconfig %+v", s.NVConfig)
		}
		nv := s.NVConfig[0]
		if _, ok := nv.Params["LINK_TYPE_P1"]; ok || nv.Params["NUM_OF_VFS"].NextBoot != "16" || nv.DeviceType != "ConnectX6DX" {
			t.Errorf("device type %q LINK_TYPE_P1 %v NUM_OF_VFS %v", nv.DeviceType, nv.Params["LINK_TYPE_P1"], nv.Params["NUM_OF_VFS"])
		}
	})
	t.Run("046 CX-7 firmware 28.40 with 28.43 available", func(t *testing.T) {
		s := buildCorpus(t, "046")
		if len(s.Firmware) == 0 || s.Firmware[0].Version != "28.40.1000" || s.Firmware[0].AvailableVersion != "28.43.1014" {
			t.Errorf("firmware %+v", s.Firmware)
		}
	})
	t.Run("110 memlock 32 KiB in the batch job", func(t *testing.T) {
		m := buildCorpus(t, "110").Host.Memlock
		if m == nil || m.SoftKiB == nil || *m.SoftKiB != 32 || m.Unlimited {
			t.Errorf("memlock %+v", m)
		}
	})
	t.Run("025 global IPv6 on IPoIB ib0", func(t *testing.T) {
		s := buildCorpus(t, "025")
		n := findNetdev(s, "ib0")
		if n == nil || n.Kind != facts.NetdevIPoIB || len(n.IPv6) == 0 || n.IPv6[0].Scope != "global" {
			t.Errorf("ib0 %+v", n)
		}
	})
	t.Run("042 mlx5 completion IRQs with their PCI address", func(t *testing.T) {
		s := buildCorpus(t, "042")
		comp := 0
		for _, q := range s.IRQs {
			if q.Kind == "comp" && q.PCIAddress == "0000:01:00.0" {
				comp++
			}
		}
		if comp < 2 {
			t.Errorf("%d completion IRQs of 0000:01:00.0 in %+v", comp, s.IRQs)
		}
	})
	t.Run("112 two captures of mlx5_5 stay apart", func(t *testing.T) {
		s := buildCorpus(t, "112")
		states := map[string]string{}
		for _, d := range s.Devices {
			if d.Name == "mlx5_5" {
				states[d.Capture] = d.Ports[0].State
			}
		}
		if len(states) != 2 || states[""] != "Active" {
			t.Errorf("mlx5_5 captures %v", states)
		}
	})
}
