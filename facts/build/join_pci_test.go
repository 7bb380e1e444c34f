package build_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// TestJoinPCIOnEvidenceOnly: a node's only device and only Mellanox function are joined when
// their device id or the device's udev name agree with the function, and left apart, with an
// "unjoined" source saying why, when the evidence disagrees or nothing links them.
func TestJoinPCIOnEvidenceOnly(t *testing.T) {
	scenario := filepath.Join(fixtures.Dir(), "scenarios", "cx-ib-mode-on-ethernet-switch")
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	mstStatus := read(filepath.Join(scenario, "mst_status")) // corpus 035: mt4115_pciconf0 at 0000:06:00.0
	for _, tc := range []struct {
		name    string
		fsys    fstest.MapFS
		dev     string
		wantPCI string
		wantWhy string // the unjoined source's message, or the join's evidence
	}{
		{"scenario: ibp4s0 is bus 4 by its name, the card is on bus 6", dirFS(t, scenario, "ibstat", "mst_status", "mlxconfig"),
			"ibp4s0", "",
			"PCI address unknown: not joined to 0000:06:00.0, the only Mellanox physical function, because the name ibp4s0 says PCI bus 4 (0x04) slot 0, 0000:06:00.0 is bus 6 slot 0"},
		// mst_status of corpus 035 with only its address edited to bus 4, the bus ibp4s0 names.
		{"bus and device id agree", fstest.MapFS{
			"ibstat":     {Data: read(filepath.Join(scenario, "ibstat"))},
			"mst_status": {Data: []byte(strings.Replace(string(mstStatus), "0000:06:00.0", "0000:04:00.0", 1))},
		}, "ibp4s0", "0000:04:00.0",
			"0000:04:00.0: its PCI device id 0x1013 is the MT4115's; the name ibp4s0 says PCI bus 4 slot 0"},
		// corpus 118's ConnectX (MT25418, ibv_devinfo vendor_part_id) with lspci of a ConnectX-6 at
		// 99:00.0 (fixtures/lspci/cx6-hdr100.txt, no -nn): nothing says they are one card.
		{"MT25418 and a ConnectX-6 lspci", fstest.MapFS{
			"ibv_devinfo_-v": {Data: read(filepath.Join(corpusDir(t, "118"), "ibv_devinfo_-v"))},
			"lspci_-vvv":     {Data: read(filepath.Join(fixtures.Dir(), "lspci", "cx6-hdr100.txt"))},
		}, "mlx4_0", "",
			"PCI address unknown: not joined to 0000:99:00.0, the only Mellanox physical function, because nothing links them (no sysfs device link, ibdev2netdev, mst status -v, matching GUID, PCI device id or PCI name)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := snapshotOf(t, tc.fsys)
			var d *facts.Device
			for i := range s.Devices {
				if s.Devices[i].Name == tc.dev {
					d = &s.Devices[i]
				}
			}
			if d == nil {
				t.Fatalf("no device %s in %+v", tc.dev, s.Devices)
			}
			why := d.Evidence["pci_address"].Text
			for _, src := range s.Sources {
				if src.Status == facts.StatusUnjoined && src.Name == "join" && src.Origin == tc.dev {
					why = src.Error
				}
			}
			if diff := cmp.Diff([]string{tc.wantPCI, tc.wantWhy}, []string{d.PCIAddress, why}); diff != "" {
				t.Errorf("pci address, why (-want +got):\n%s", diff)
			}
		})
	}
}
