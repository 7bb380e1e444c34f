package parse_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// damaged returns a real fixture with edit applied (the test fails when edit changes nothing).
func damaged(t *testing.T, fixture string, edit func([]byte) []byte) []byte {
	t.Helper()
	orig := fixtures.Read(t, fixture)
	b := edit(bytes.Clone(orig))
	if bytes.Equal(b, orig) {
		t.Fatalf("%s: the edit changed nothing", fixture)
	}
	return b
}

// cutAt cuts a capture in the middle of the first occurrence of s (after its first n bytes),
// the way `head -c` or a paste that stopped does: no final newline.
func cutAt(s string, n int) func([]byte) []byte {
	return func(b []byte) []byte { return b[:bytes.Index(b, []byte(s))+n] }
}

// swap replaces the first old with new.
func swap(old, new string) func([]byte) []byte {
	return func(b []byte) []byte { return bytes.Replace(b, []byte(old), []byte(new), 1) }
}

// wantProblems checks that err is a parse.Problems naming exactly lines, one of them with why.
func wantProblems(t *testing.T, err error, lines []int, why string) {
	t.Helper()
	ps, ok := parse.AsProblems(err)
	if !ok {
		t.Fatalf("err = %v, want parse.Problems on lines %v", err, lines)
	}
	var got []int
	whys := ""
	for _, p := range ps {
		got = append(got, p.Line)
		whys += p.Why + "; "
	}
	if !slices.Equal(got, lines) || !strings.Contains(whys, why) {
		t.Errorf("problems %+v, want lines %v with %q", ps, lines, why)
	}
}

func TestIBDev2NetdevDamageNamed(t *testing.T) {
	const f = "ibdev2netdev/dgx-a100-vfs.txt"
	t.Run("port not a number", func(t *testing.T) {
		recs, err := parse.IBDev2Netdev(damaged(t, f, swap("mlx5_3 port 1", "mlx5_3 port fifty")))
		wantProblems(t, err, []int{10}, "not an ibdev2netdev line")
		if len(recs) != 15 {
			t.Errorf("%d records kept, want the other 15", len(recs))
		}
	})
	t.Run("cut before ==>", func(t *testing.T) {
		recs, err := parse.IBDev2Netdev(damaged(t, f, cutAt("mlx5_3 port 1", 13)))
		wantProblems(t, err, []int{10}, "file ends mid-line")
		if len(recs) != 9 {
			t.Errorf("%d records kept, want 9", len(recs))
		}
	})
	t.Run("cut after the state is complete", func(t *testing.T) {
		// The last line is whole without its newline: a paste, not a cut.
		if _, err := parse.IBDev2Netdev(damaged(t, f, cutAt("mlx5_3 port 1 ==> ibp84s0 (Down)", 32))); err != nil {
			t.Errorf("err = %v", err)
		}
	})
}

func TestEthtoolStatsDamageNamed(t *testing.T) {
	const f = "ethtool_stats/mlx5-xdp-kernel-6.5.txt"
	t.Run("cut mid-value", func(t *testing.T) {
		stats, _, _, err := parse.EthtoolStats(damaged(t, f, cutAt("rx_discards_phy: 441063206498", 21)))
		wantProblems(t, err, []int{38}, "file ends mid-line")
		if _, ok := stats["rx_discards_phy"]; ok || stats["rx_packets_phy"] != 728277471186 {
			t.Errorf("the cut counter kept or the others lost: %v", stats)
		}
	})
	t.Run("value not a number", func(t *testing.T) {
		stats, _, _, err := parse.EthtoolStats(damaged(t, f, swap("rx_packets: 7282880", "rx_packets: fifty")))
		wantProblems(t, err, []int{2}, `rx_packets: value "fifty" is not a number`)
		if _, ok := stats["rx_packets"]; ok || stats["rx_discards_phy"] != 441063206498 {
			t.Errorf("the bad counter kept or the others lost: %v", stats)
		}
	})
}

func TestIPAddrDamageNamed(t *testing.T) {
	const f = "ip_addr/ipoib-ib1-no-lower-up-tentative.txt"
	t.Run("cut mid-address", func(t *testing.T) {
		nds, err := parse.IPAddr(damaged(t, f, cutAt("inet 192.0.2.11/16 brd", 28)))
		wantProblems(t, err, []int{3}, "file ends mid-line")
		if len(nds) != 1 || nds[0].Kind == "" {
			t.Errorf("netdevs %+v, want ib1 with its link line", nds)
		}
	})
	t.Run("block cut after its header", func(t *testing.T) {
		_, err := parse.IPAddr(damaged(t, f, cutAt("  link/infiniband", 0)))
		wantProblems(t, err, []int{1}, "no link/ line")
	})
}

func TestShowGIDsDamageNamed(t *testing.T) {
	const f = "show_gids/vlan-link-local.txt"
	t.Run("cut mid-netdev", func(t *testing.T) {
		devs, err := parse.ShowGIDs(damaged(t, f, cutAt("v1  enp1s0f0.1003", 13)))
		wantProblems(t, err, []int{59}, "file ends mid-line")
		if len(devs) != 1 || len(devs[0].Ports[0].GIDs) != 57 {
			t.Errorf("devices %+v, want the 57 rows read", devs)
		}
	})
	t.Run("index not a number", func(t *testing.T) {
		_, err := parse.ShowGIDs(damaged(t, f, swap("rocep1s0f0  1   6 ", "rocep1s0f0  1   fifty ")))
		wantProblems(t, err, []int{59}, "PORT or INDEX: not a number")
	})
	t.Run("count disagrees", func(t *testing.T) {
		_, err := parse.ShowGIDs(damaged(t, f, swap("n_gids_found=196", "n_gids_found=197")))
		wantProblems(t, err, []int{199}, "197 GID(s) announced, 196 row(s) read")
	})
}

func TestRDMAAppLogDamageNamed(t *testing.T) {
	out, err := parse.RDMAAppLog(damaged(t, "rdma_app_log/ucx-memlock-64k.txt", cutAt("Cannot allocate memory", 10)))
	wantProblems(t, err, []int{6}, "file ends mid-line")
	if len(out.Messages) != 1 || out.Memlock != nil {
		t.Errorf("messages %+v memlock %+v, want the cut message and no limit", out.Messages, out.Memlock)
	}
}

func TestIBVDevicesDamageNamed(t *testing.T) {
	const f = "ibv_devices/vfs-zero-guid.txt"
	for _, tc := range []struct {
		name string
		edit func([]byte) []byte
		line int
		why  string
		kept int
	}{
		{"GUID turned into a word", swap("mlx5_3 0000000000000000", "mlx5_3 fifty"), 5, "16-digit node GUID", 3},
		{"row cut mid-GUID", cutAt("mlx5_1 506b", 9), 6, "cut", 3},
		{"cut right after a row, before the rows that followed", cutAt("\nmlx5_3", 0), 4, "cut", 2},
		{"a byte that is not UTF-8", swap("mlx5_2 0000", "mlx5_2 \ufffd0000"), 3, "not UTF-8", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := parse.IBVDevices(damaged(t, f, tc.edit))
			wantProblems(t, err, []int{tc.line}, tc.why)
			if len(out.Devices) != tc.kept {
				t.Errorf("%d devices kept, want %d", len(out.Devices), tc.kept)
			}
		})
	}
}

func TestNCCLLogDamageNamed(t *testing.T) {
	const f = "rdma_app_log/nccl-bootstrap-ib0-ipv6-link-local.txt"
	for _, tc := range []struct {
		name string
		edit func([]byte) []byte
		why  string
	}{
		{"address turned into a word", swap("fe80::a288", "fe80::fifty"), "does not parse"},
		{"a byte that is not UTF-8", swap("fe80::a288", "fe80::\ufffda288"), "not UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := parse.RDMAAppLog(damaged(t, f, tc.edit))
			wantProblems(t, err, []int{8}, tc.why)
			if len(out.NCCLNetdevs) != 2 || out.NCCLNetdevs[0].LinkLocal != nil {
				t.Errorf("got %+v, want both interfaces, the damaged one unjudged", out.NCCLNetdevs)
			}
		})
	}
}

// corpus 038's mlx4_0 (sys/class/infiniband/mlx4_0/hca_type "MT4099", fw_ver "2.31.5050"): a cut
// hca_type or a damaged fw_ver is named, not read as another adapter or firmware.
func TestSysfsDeviceDamageNamed(t *testing.T) {
	for _, tc := range []struct {
		rel, val, why string
	}{
		{"hca_type", "MT40", "not MT and a PCI device id"},
		{"hca_type", "", "not MT and a PCI device id"},
		{"fw_ver", "fifty.31.5050", "not a version"},
	} {
		dev, probs := parse.SysfsDevice("mlx4_0", []parse.SysfsFile{{Rel: tc.rel, Path: "sys/class/infiniband/mlx4_0/" + tc.rel, Value: tc.val}})
		if len(probs) != 1 || !strings.Contains(probs[0], tc.why) || dev.CAType != "" || dev.Firmware != "" {
			t.Errorf("%s %q: problems %v, device %+v", tc.rel, tc.val, probs, dev)
		}
	}
	dev, probs := parse.SysfsDevice("mlx4_0", []parse.SysfsFile{{Rel: "hca_type", Value: "MT4099\n"}, {Rel: "fw_ver", Value: "2.31.5050\n"}})
	if len(probs) != 0 || dev.CAType != "MT4099" || dev.Firmware != "2.31.5050" {
		t.Errorf("undamaged: problems %v, device %+v", probs, dev)
	}
}

// An IBM Power logical port (a ConnectX-4 Lx VF whose PF only the hypervisor sees): its uevent's
// "PCI_ID=15B3:1016" (fixtures/sysfs_infiniband/vf-uevent-pci-id-grep.txt) gives the CA type
// MT4118 (a VF) without lspci; hca_type, when read, wins.
func TestSysfsDeviceCATypeFromUevent(t *testing.T) {
	ue := parse.SysfsFile{Rel: "device/uevent", Path: "sys/class/infiniband/mlx5_0/device/uevent",
		Value: string(fixtures.Read(t, "sysfs_infiniband/vf-uevent-pci-id-grep.txt"))}
	dev, probs := parse.SysfsDevice("mlx5_0", []parse.SysfsFile{ue})
	if len(probs) != 0 || dev.CAType != "MT4118" || dev.Evidence["ca_type"].Text != "PCI_ID=15B3:1016" {
		t.Errorf("problems %v, CA type %q, evidence %+v", probs, dev.CAType, dev.Evidence["ca_type"])
	}
	dev, _ = parse.SysfsDevice("mlx5_0", []parse.SysfsFile{ue, {Rel: "hca_type", Value: "MT4117\n"}})
	if dev.CAType != "MT4117" {
		t.Errorf("hca_type read after the uevent: CA type %q, want MT4117", dev.CAType)
	}
}
