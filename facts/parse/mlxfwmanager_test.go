package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestMlxFWManager(t *testing.T) {
	const (
		oem   = "mlxfwmanager/cx3pro-hp-oem-no-image.txt"
		mlxup = "mlxfwmanager/mlxup-cx7-update-required.txt"
		ok    = "mlxfwmanager/cx5-up-to-date-hpe-doc.txt"
	)
	e := func(f string, n int) facts.Evidence { return fixtureEv(t, f, n) }
	cx7desc := "NVIDIA ConnectX-7 HHHL Adapter Card; 200GbE (default mode) / NDR200 IB; Dual-port QSFP112; PCIe 5.0 x16 with x16 PCIe extension option; Crypto Disabled; Secure Boot Enabled"
	cx7 := func(off int, dev, mac string) facts.FirmwareInfo {
		return facts.FirmwareInfo{
			Device: dev, DeviceType: "ConnectX7", PartNumber: "MCX755106AS-HEA_Ax", Description: cx7desc,
			PSID: "MT_0000000834", BaseMAC: mac, Version: "28.40.1000", AvailableVersion: "28.43.1014", Status: "Update required",
			Evidence: facts.EvidenceMap{
				"device_type": e(mlxup, off+6), "part_number": e(mlxup, off+7), "description": e(mlxup, off+8),
				"psid": e(mlxup, off+9), "device": e(mlxup, off+10), "base_mac": e(mlxup, off+11),
				"version": e(mlxup, off+13), "available_version": e(mlxup, off+13), "status": e(mlxup, off+17),
			},
		}
	}
	for _, tc := range []struct {
		fixture string
		want    []facts.FirmwareInfo
	}{
		// Case 034: OEM (HP) PSID, so mlxfwmanager has no image for it; "N/A" means no available version.
		{oem, []facts.FirmwareInfo{{
			Device: "/dev/mst/mt4103_pci_cr2", DeviceType: "ConnectX3Pro", PartNumber: "764285-B21_Ax",
			Description: "HP InfiniBand FDR/Ethernet 10Gb/40Gb 2-port 544+FLR-QSFP Adapter", PSID: "HP_1380110017",
			BaseMAC: "e0071b783ea1", Version: "2.42.5700", Status: "No matching image found",
			Evidence: facts.EvidenceMap{
				"device_type": e(oem, 6), "part_number": e(oem, 7), "description": e(oem, 8), "psid": e(oem, 9),
				"device": e(oem, 10), "base_mac": e(oem, 11), "version": e(oem, 14), "status": e(oem, 19),
			},
		}}},
		// Case 046: two ConnectX-7 behind the bundled image.
		{mlxup, []facts.FirmwareInfo{cx7(0, "/dev/mst/mt4129_pciconf1", "5c2573a98bd4"), cx7(16, "/dev/mst/mt4129_pciconf0", "5c257331e4dc")}},
		{ok, []facts.FirmwareInfo{{
			Device: "/dev/mst/mt4119_pciconf0", DeviceType: "ConnectX5", PartNumber: "MCX515A-CCA_Ax_Bx",
			Description: "ConnectX-5 EN network interface card; 100GbE single-port ...", PSID: "MT_0000000011",
			BaseGUID: "ec0d9a0300d9c516", BaseMAC: "ec0d9ad9c516", Version: "16.28.2006", AvailableVersion: "16.28.2006",
			Status: "Up to date",
			Evidence: facts.EvidenceMap{
				"device_type": e(ok, 6), "part_number": e(ok, 7), "description": e(ok, 8), "psid": e(ok, 9),
				"device": e(ok, 10), "base_guid": e(ok, 11), "base_mac": e(ok, 12), "version": e(ok, 14),
				"available_version": e(ok, 14), "status": e(ok, 18),
			},
		}}},
	} {
		got, err := parse.MlxFWManager(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}
