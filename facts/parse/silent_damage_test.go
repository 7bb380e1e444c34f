package parse_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// dropLine removes line n (1-based) with its newline.
func dropLine(n int) func([]byte) []byte {
	return func(b []byte) []byte {
		lines := bytes.SplitAfter(b, []byte("\n"))
		return bytes.Join(append(lines[:n-1:n-1], lines[n:]...), nil)
	}
}

// U+FFFD is what facts/source.Text puts in place of a byte that is not UTF-8.
const badByte = "\uFFFD"

func TestIBStatCutAndBadByteNamed(t *testing.T) {
	const f = "ibstat/h100-ndr-eth-disabled.txt" // its last line has no newline: a complete paste
	if _, err := parse.IBStat(fixtures.Read(t, f)); err != nil {
		t.Fatalf("undamaged: %v", err)
	}
	t.Run("cut in a key", func(t *testing.T) {
		_, err := parse.IBStat(damaged(t, f, cutAt("Capability mask: 0x00010000", 1)))
		wantProblems(t, err, []int{32}, "cut")
	})
	t.Run("cut in a value", func(t *testing.T) {
		_, err := parse.IBStat(damaged(t, f, cutAt("Capability mask: 0x00010000", 20)))
		wantProblems(t, err, []int{32}, "cut")
	})
	t.Run("bad byte in a free value", func(t *testing.T) {
		_, err := parse.IBStat(damaged(t, f, swap("CA type: ", "CA type:"+badByte+" ")))
		wantProblems(t, err, []int{2}, "not UTF-8")
	})
}

func TestIBStatusCutDropAndBadByteNamed(t *testing.T) {
	const f = "ibstatus/ddr-port-training.txt"
	t.Run("cut in a rate", func(t *testing.T) {
		_, err := parse.IBStatus(damaged(t, f, cutAt("rate:", 12)))
		wantProblems(t, err, []int{7, 7}, "cut") // its value does not parse, and it was cut
	})
	t.Run("first header dropped", func(t *testing.T) {
		_, err := parse.IBStatus(damaged(t, f, dropLine(1)))
		wantProblems(t, err, []int{1, 2, 3, 4, 5, 6}, "outside a port block")
	})
	t.Run("bad byte in a device name", func(t *testing.T) {
		_, err := parse.IBStatus(damaged(t, f, swap("mlx4_0' port 1", "mlx4_"+badByte+"0' port 1")))
		wantProblems(t, err, []int{1}, "not UTF-8")
	})
}

func TestIBVDevInfoCutNamed(t *testing.T) {
	const f = "ibv_devinfo/dgx-spark-roce-mtu1024.txt"
	t.Run("cut in a device block", func(t *testing.T) {
		_, err := parse.IBVDevInfo(damaged(t, f, cutAt("hca_id:\trocep1s0f1", 15)))
		wantProblems(t, err, []int{20}, "cut")
	})
	t.Run("cut in a port key", func(t *testing.T) {
		_, err := parse.IBVDevInfo(damaged(t, f, cutAt("active_mtu:", 7)))
		wantProblems(t, err, []int{14}, "cut")
	})
}

func TestMSTStatusDamageNamed(t *testing.T) {
	const f = "mst_status/cx3-cr-and-pciconf.txt"
	for _, f := range []string{f, "mst_status/cx7-two-domains.txt", "mst_status/bf3-verbose.txt", "mst_status/cx4-verbose-domain.txt"} {
		if _, err := parse.MSTStatus(fixtures.Read(t, f)); err != nil {
			t.Errorf("%s undamaged: %v", f, err)
		}
	}
	t.Run("cut in an address line", func(t *testing.T) {
		devs, err := parse.MSTStatus(damaged(t, f, cutAt("bar=0xf7d00000", 10)))
		wantProblems(t, err, []int{9}, "cut")
		if len(devs) != 1 {
			t.Errorf("%d devices, want the one before the cut", len(devs))
		}
	})
	t.Run("address line dropped", func(t *testing.T) {
		_, err := parse.MSTStatus(damaged(t, f, dropLine(9)))
		wantProblems(t, err, []int{8}, "no domain:bus:dev.fn line")
	})
	t.Run("device line dropped", func(t *testing.T) {
		_, err := parse.MSTStatus(damaged(t, "mst_status/cx7-two-domains.txt", dropLine(8)))
		wantProblems(t, err, []int{8}, "without a device line")
	})
	t.Run("address not a number", func(t *testing.T) {
		_, err := parse.MSTStatus(damaged(t, "mst_status/cx7-two-domains.txt", swap("0001:05:00.0", "0001:fifty:00.0")))
		wantProblems(t, err, []int{12}, "not a PCI address")
	})
	t.Run("bad byte in a path", func(t *testing.T) {
		_, err := parse.MSTStatus(damaged(t, "mst_status/cx7-two-domains.txt", swap("mt4129_pciconf0", "mt412"+badByte+"9_pciconf0")))
		wantProblems(t, err, []int{8}, "not UTF-8")
	})
}

func TestRDMALinkDamageNamed(t *testing.T) {
	const f = "rdma_link/dgx-a100.txt"
	if _, err := parse.RDMALink(fixtures.Read(t, f)); err != nil {
		t.Fatalf("undamaged: %v", err)
	}
	t.Run("cut in a line", func(t *testing.T) {
		devs, err := parse.RDMALink(damaged(t, f, cutAt("mlx5_6/1", 40)))
		if _, ok := parse.AsProblems(err); !ok || len(devs) == 0 {
			t.Fatalf("err %v, %d devices: want the lines before the cut and the cut named", err, len(devs))
		}
	})
	t.Run("states iproute2 prints are not damage", func(t *testing.T) {
		_, err := parse.RDMALink([]byte("link mlx5_0/1 state NOP physical_state NOP\nlink mlx5_1/1 state ACTIVE physical_state LINK_ERROR_RECOVER\n"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = parse.RDMALink([]byte("link mlx5_0/1 state ACT\n"))
		wantProblems(t, err, []int{1}, "not a port state")
	})
	t.Run("bad byte in a name", func(t *testing.T) {
		_, err := parse.RDMALink(damaged(t, f, swap("mlx5_5/1", "mlx5_5"+badByte+"/1")))
		if _, ok := parse.AsProblems(err); !ok {
			t.Fatalf("err %v, want the line named", err)
		}
	})
}

func TestMlxFWManagerDamageNamed(t *testing.T) {
	const f = "mlxfwmanager/mlxup-cx7-update-required.txt"
	for _, f := range []string{f, "mlxfwmanager/cx3pro-hp-oem-no-image.txt", "mlxfwmanager/cx5-up-to-date-hpe-doc.txt"} {
		if _, err := parse.MlxFWManager(fixtures.Read(t, f)); err != nil {
			t.Errorf("%s undamaged: %v", f, err)
		}
	}
	t.Run("cut in the second device", func(t *testing.T) {
		recs, err := parse.MlxFWManager(damaged(t, f, cutAt("Device #2:", 50)))
		if _, ok := parse.AsProblems(err); !ok || len(recs) != 2 || recs[0].AvailableVersion == "" {
			t.Fatalf("err %v, %d records: want the first device whole and the second named", err, len(recs))
		}
	})
	t.Run("second device header dropped", func(t *testing.T) {
		_, err := parse.MlxFWManager(damaged(t, f, swap("Device #2:\n", "")))
		if _, ok := parse.AsProblems(err); !ok || !strings.Contains(err.Error(), "repeated") {
			t.Fatalf("err %v, want the repeated lines named", err)
		}
	})
	t.Run("bad byte in Versions", func(t *testing.T) {
		_, err := parse.MlxFWManager(damaged(t, f, swap("Versions:", "Ver"+badByte+"sions:")))
		if _, ok := parse.AsProblems(err); !ok {
			t.Fatalf("err %v, want the line named", err)
		}
	})
}

func TestSMInfoDamageNamed(t *testing.T) {
	const f = "sminfo/master.txt"
	for _, f := range []string{f, "sminfo/wrapped-multi-node.txt"} {
		if _, err := parse.SMInfo(fixtures.Read(t, f)); err != nil {
			t.Errorf("%s undamaged: %v", f, err)
		}
	}
	t.Run("priority not a number", func(t *testing.T) {
		out, err := parse.SMInfo(damaged(t, f, swap("priority 15", "priority fifty")))
		wantProblems(t, err, []int{1}, "not an sminfo line")
		if len(out.SMs) != 0 {
			t.Errorf("%d records", len(out.SMs))
		}
	})
	t.Run("cut", func(t *testing.T) {
		_, err := parse.SMInfo(damaged(t, f, cutAt("priority 15", 10)))
		wantProblems(t, err, []int{1}, "cut")
	})
}

func TestMstConfigDamageNamed(t *testing.T) {
	const f = "mstconfig/cx3-failed-to-query.txt"
	if _, err := parse.MstConfig(fixtures.Read(t, f)); err != nil {
		t.Fatalf("undamaged: %v", err)
	}
	t.Run("cut before the tool error", func(t *testing.T) {
		recs, err := parse.MstConfig(damaged(t, f, cutAt("Configurations:", 20)))
		if _, ok := parse.AsProblems(err); !ok || len(recs) != 1 || recs[0].Refusal != "" {
			t.Fatalf("err %v, records %+v: want the cut named", err, recs)
		}
	})
	t.Run("cut in a value", func(t *testing.T) {
		_, err := parse.MstConfig(damaged(t, "mstconfig/cx3pro-hp544-eth-mode.txt", func(b []byte) []byte { return bytes.TrimRight(b, "\n")[:len(bytes.TrimRight(b, "\n"))-2] }))
		if _, ok := parse.AsProblems(err); !ok {
			t.Fatalf("err %v: want the cut named", err)
		}
	})
}

func TestUlimitCutNamed(t *testing.T) {
	const f = "ulimit/sge-job-memlock-32.txt"
	if _, err := parse.Ulimit(fixtures.Read(t, f)); err != nil {
		t.Fatalf("undamaged: %v", err)
	}
	t.Run("cut in the memlock line", func(t *testing.T) {
		lim, err := parse.Ulimit(damaged(t, f, cutAt("max locked memory", 19)))
		if _, ok := parse.AsProblems(err); !ok || lim != nil {
			t.Fatalf("err %v, limit %+v: want the cut named", err, lim)
		}
	})
	t.Run("cut in the memlock value", func(t *testing.T) {
		lim, err := parse.Ulimit(damaged(t, f, cutAt("(kbytes, -l) 32", 14)))
		if _, ok := parse.AsProblems(err); !ok || lim == nil {
			t.Fatalf("err %v, limit %+v: want the value kept and the cut named", err, lim)
		}
	})
}

func TestMlxLinkDamageNamed(t *testing.T) {
	const f = "mlxlink/cx4-ib-fdr.txt"
	if _, err := parse.MlxLink(fixtures.Read(t, f)); err != nil {
		t.Fatalf("undamaged: %v", err)
	}
	t.Run("cut", func(t *testing.T) {
		_, err := parse.MlxLink(damaged(t, f, cutAt("Auto Negotiation", 20)))
		if _, ok := parse.AsProblems(err); !ok {
			t.Fatalf("err %v: want the cut named", err)
		}
	})
	t.Run("section title dropped", func(t *testing.T) {
		_, err := parse.MlxLink(damaged(t, f, swap("Supported Info\n", "")))
		if _, ok := parse.AsProblems(err); !ok || !strings.Contains(err.Error(), "without a title") {
			t.Fatalf("err %v: want the underline named", err)
		}
	})
}

func TestLSPCICutNamed(t *testing.T) {
	const f = "lspci/cx3-grep-lnksta.txt"
	if _, err := parse.LSPCI(fixtures.Read(t, f)); err != nil {
		t.Fatalf("undamaged: %v", err)
	}
	fns, err := parse.LSPCI(damaged(t, f, cutAt("LnkSta:", 30)))
	if _, ok := parse.AsProblems(err); !ok || len(fns) == 0 {
		t.Fatalf("err %v, %d functions: want what was read and the cut named", err, len(fns))
	}
}

func TestOpenSMLogCutNamed(t *testing.T) {
	const f = "opensm/stdout-bind-error.txt"
	if _, err := parse.OpenSMLog(fixtures.Read(t, f)); err != nil {
		t.Fatalf("undamaged: %v", err)
	}
	_, err := parse.OpenSMLog(damaged(t, f, cutAt("Error from osm_opensm_bind", 6)))
	wantProblems(t, err, []int{12}, "cut")
}

func TestIBStatFirmwareWordAndDroppedCALineNamed(t *testing.T) {
	t.Run("word in the firmware version", func(t *testing.T) {
		const f = "ibstat/h100-ndr-eth-disabled.txt"
		devs, err := parse.IBStat(damaged(t, f, swap("Firmware version: 22.38.1002", "Firmware version: 22.38.fifty")))
		wantProblems(t, err, []int{21}, "not a version")
		if devs.Devices[1].Firmware != "" {
			t.Errorf("firmware %q kept from a damaged line", devs.Devices[1].Firmware)
		}
	})
	t.Run("masked firmware version is not damage", func(t *testing.T) {
		if _, err := parse.IBStat(fixtures.Read(t, "ibstat/roce-vf-zero-guid-excerpt.txt")); err != nil {
			t.Errorf("xx.xx.xxxx: %v", err)
		}
	})
	const f = "ibstat/vf-down-linkup-lid-65535.txt"
	if _, err := parse.IBStat(fixtures.Read(t, f)); err != nil {
		t.Fatalf("undamaged: %v", err)
	}
	t.Run("CA type dropped", func(t *testing.T) {
		devs, err := parse.IBStat(damaged(t, f, dropLine(2)))
		wantProblems(t, err, []int{1}, "no CA type line")
		if len(devs.Devices) != 1 || len(devs.Devices[0].Ports) != 1 {
			t.Errorf("devices %+v, want the CA and its port kept", devs.Devices)
		}
	})
	t.Run("Firmware version dropped", func(t *testing.T) {
		_, err := parse.IBStat(damaged(t, f, dropLine(4)))
		wantProblems(t, err, []int{1}, "no Firmware version line")
	})
}

func TestIBVDevInfoFirmwareWordNamed(t *testing.T) {
	const f = "ibv_devinfo/mlx4-device-ports.txt"
	if _, err := parse.IBVDevInfo(fixtures.Read(t, f)); err != nil {
		t.Fatalf("undamaged: %v", err)
	}
	out, err := parse.IBVDevInfo(damaged(t, f, swap("2.42.5000", "fifty.42.5000")))
	wantProblems(t, err, []int{3}, "not a version")
	if len(out.Devices) != 1 || out.Devices[0].Firmware != "" {
		t.Errorf("devices %+v, want mlx4_0 without its firmware", out.Devices)
	}
}

func TestLSPCIBadByteInLinkNamed(t *testing.T) {
	const f = "lspci/cx3-grep-lnksta.txt"
	if _, err := parse.LSPCI(fixtures.Read(t, f)); err != nil {
		t.Fatalf("undamaged: %v", err)
	}
	t.Run("in the width", func(t *testing.T) {
		_, err := parse.LSPCI(damaged(t, f, swap("Width x", "Wi"+badByte+"dth x")))
		wantProblems(t, err, []int{1}, "not UTF-8")
	})
	t.Run("in the key", func(t *testing.T) {
		_, err := parse.LSPCI(damaged(t, f, swap("LnkSta:", "Lnk"+badByte+"Sta:")))
		wantProblems(t, err, []int{1}, "not UTF-8")
	})
}
