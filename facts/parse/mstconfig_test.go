package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestMstConfig(t *testing.T) {
	// nb builds a next-boot-only parameter read from line n of fixture f.
	nb := func(f string, n int, v string) facts.NVParam {
		return facts.NVParam{NextBoot: v, Evidence: fixtureEv(t, f, n)}
	}
	dcn := func(f string, n int, d, c, nx string, mod bool) facts.NVParam {
		return facts.NVParam{Default: d, Current: c, NextBoot: nx, Modified: mod, Evidence: fixtureEv(t, f, n)}
	}
	const (
		lenovo   = "mstconfig/cx4-lenovo-excerpt.txt"
		failed   = "mstconfig/cx3-failed-to-query.txt"
		sriov    = "mstconfig/cx6-grep-sriov.txt"
		eform    = "mstconfig/cx4-e-query-nic-config-operator.txt"
		hpe      = "mstconfig/cx5-e-query-hpe-doc-excerpt.txt"
		unsupp   = "mstconfig/cx3-unsupported-device-twice.txt"
		hp544    = "mstconfig/cx3-hp544-p1-eth-p2-vpi.txt"
		ethOnly  = "mstconfig/cx6dx-eth-only-sriov.txt"
		linkGrep = "mstconfig/cx6-grep-link.txt"
	)
	for _, tc := range []struct {
		fixture string
		want    []facts.NVConfig
	}{
		{lenovo, []facts.NVConfig{{
			Device: "/dev/mst/mt4115_pciconf0", DeviceType: "ConnectX4",
			Description: "Mellanox ConnectX-4 EDR IB VPI Single-port x16 PCIe 3.0 HCA",
			Params: map[string]facts.NVParam{
				"LINK_TYPE_P1": nb(lenovo, 10, "ETH(2)"),
				"SRIOV_EN":     nb(lenovo, 11, "True(1)"),
				"NUM_OF_VFS":   nb(lenovo, 12, "8"),
			},
			Evidence: facts.EvidenceMap{
				"device_type": fixtureEv(t, lenovo, 4), "description": fixtureEv(t, lenovo, 6), "device": fixtureEv(t, lenovo, 7),
			},
		}}},
		{failed, []facts.NVConfig{{
			Device: "/dev/mst/mt4099_pciconf0", DeviceType: "ConnectX3",
			Refusal: "-E- Failed to query device current configuration",
			Evidence: facts.EvidenceMap{
				"device_type": fixtureEv(t, failed, 5), "device": fixtureEv(t, failed, 6), "refusal": fixtureEv(t, failed, 9),
			},
		}}},
		// a grep of the parameter lines: only what it holds is known to pass its filter
		{sriov, []facts.NVConfig{{Filter: "^(NUM_OF_VFS|SRIOV_EN)$", Params: map[string]facts.NVParam{
			"NUM_OF_VFS": nb(sriov, 1, "8"),
			"SRIOV_EN":   nb(sriov, 2, "True(1)"),
		}}}},
		{eform, []facts.NVConfig{{
			DeviceType: "ConnectX4",
			Params: map[string]facts.NVParam{
				"KEEP_IB_LINK_UP_P2":          dcn(eform, 7, "False(0)", "True(1)", "True(1)", true),
				"KEEP_LINK_UP_ON_BOOT_P2":     dcn(eform, 8, "False(0)", "False(0)", "False(0)", false),
				"ESWITCH_HAIRPIN_DESCRIPTORS": dcn(eform, 9, "Array[0..7]", "Array[0..7]", "Array[0..7]", false),
				"MEMIC_SIZE_LIMIT":            dcn(eform, 10, "_256KB(1)", "_256KB(1)", "DISABLED(0)", true),
			},
			Evidence: facts.EvidenceMap{"device_type": fixtureEv(t, eform, 5)},
		}}},
		{hpe, []facts.NVConfig{{
			Device: "/dev/mst/mt4119_pciconf0", DeviceType: "ConnectX5",
			Description: "ConnectX-5 EN network interface card; 100GbE single-port ...",
			Params: map[string]facts.NVParam{
				"MEMIC_BAR_SIZE":        dcn(hpe, 10, "0", "0", "0", false),
				"MEMIC_SIZE_LIMIT":      dcn(hpe, 11, "_256KB(1)", "_256KB(1)", "_256KB(1)", false),
				"ADVANCED_PCI_SETTINGS": dcn(hpe, 14, "False(0)", "True(1)", "True(1)", true),
				"SAFE_MODE_THRESHOLD":   dcn(hpe, 15, "10", "10", "10", false),
				"SAFE_MODE_ENABLE":      dcn(hpe, 16, "True(1)", "True(1)", "True(1)", false),
			},
			Evidence: facts.EvidenceMap{
				"device_type": fixtureEv(t, hpe, 4), "description": fixtureEv(t, hpe, 6), "device": fixtureEv(t, hpe, 7),
			},
		}}},
		{unsupp, []facts.NVConfig{{
			Refusal:  "-E- Unsupported device",
			Evidence: facts.EvidenceMap{"refusal": fixtureEv(t, unsupp, 1)},
		}}},
		{linkGrep, []facts.NVConfig{{Filter: "^(AUTO_POWER_SAVE_LINK_DOWN_P1|KEEP_ETH_LINK_UP_P1|KEEP_IB_LINK_UP_P1|KEEP_LINK_UP_ON_BOOT_P1|KEEP_LINK_UP_ON_STANDBY_P1|LINK_TYPE_P1|UNKNOWN_UPLINK_MAC_FLOOD_P1)$", Params: map[string]facts.NVParam{
			"LINK_TYPE_P1":                 nb(linkGrep, 1, "IB(1)"),
			"KEEP_ETH_LINK_UP_P1":          nb(linkGrep, 2, "True(1)"),
			"KEEP_IB_LINK_UP_P1":           nb(linkGrep, 3, "False(0)"),
			"KEEP_LINK_UP_ON_BOOT_P1":      nb(linkGrep, 4, "False(0)"),
			"KEEP_LINK_UP_ON_STANDBY_P1":   nb(linkGrep, 5, "False(0)"),
			"AUTO_POWER_SAVE_LINK_DOWN_P1": nb(linkGrep, 6, "False(0)"),
			"UNKNOWN_UPLINK_MAC_FLOOD_P1":  nb(linkGrep, 7, "False(0)"),
		}}}},
	} {
		got, err := parse.MstConfig(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}

	// Case 101: mstconfig without -d names the device by its sysfs config path; P1 ETH, P2 VPI.
	got, err := parse.MstConfig(fixtures.Read(t, hp544))
	if err != nil || len(got) != 1 {
		t.Fatalf("%s: %d records, %v", hp544, len(got), err)
	}
	d := got[0]
	if d.PCIAddress != "0000:05:00.0" || d.Device != "/sys/bus/pci/devices/0000:05:00.0/config" || d.DeviceType != "ConnectX3" || len(d.Params) != 20 ||
		d.Params["LINK_TYPE_P1"] != nb(hp544, 10, "ETH(2)") || d.Params["LINK_TYPE_P2"] != nb(hp544, 11, "VPI(3)") ||
		d.Evidence["pci_address"] != fixtureEv(t, hp544, 5) {
		t.Errorf("%s: got %+v", hp544, d)
	}

	// Case 102: an Ethernet-only ConnectX-6 Dx has no LINK_TYPE_Px at all; its BDF-only Device line is kept as printed.
	got, err = parse.MstConfig(fixtures.Read(t, ethOnly))
	if err != nil || len(got) != 1 {
		t.Fatalf("%s: %d records, %v", ethOnly, len(got), err)
	}
	d = got[0]
	if _, ok := d.Params["LINK_TYPE_P1"]; ok || d.Device != "61:00.0" || d.DeviceType != "ConnectX6DX" ||
		d.Params["NUM_OF_VFS"] != nb(ethOnly, 26, "16") || d.Params["SRIOV_EN"] != nb(ethOnly, 28, "True(1)") ||
		d.Params["HOST_CHAINING_DESCRIPTORS"].NextBoot != "Array[0..7]" || d.Params["EXP_ROM_UEFI_x86_ENABLE"].NextBoot != "True(1)" {
		t.Errorf("%s: got device %q type %q, %d params", ethOnly, d.Device, d.DeviceType, len(d.Params))
	}
}
