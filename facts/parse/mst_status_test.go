package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestMSTStatus(t *testing.T) {
	const (
		cx7   = "mst_status/cx7-two-domains.txt"
		cx3   = "mst_status/cx3-cr-and-pciconf.txt"
		bf3   = "mst_status/bf3-verbose.txt"
		cx4v  = "mst_status/cx4-verbose-domain.txt"
		bf2   = "mst_status/bf2-verbose-no-rdma.txt"
		three = "mst_status/cx3pro-three-cards-pciconf-and-cr.txt"
	)
	e := func(f string, n int) facts.Evidence { return fixtureEv(t, f, n) }
	for _, tc := range []struct {
		fixture string
		want    []facts.MSTDevice
	}{
		// Case 046: the second adapter sits in PCI domain 0001.
		{cx7, []facts.MSTDevice{
			{Path: "/dev/mst/mt4129_pciconf0", PCIAddress: "0000:05:00.0", Evidence: e(cx7, 8)},
			{Path: "/dev/mst/mt4129_pciconf1", PCIAddress: "0001:05:00.0", Evidence: e(cx7, 11)},
		}},
		{cx3, []facts.MSTDevice{
			{Path: "/dev/mst/mt4099_pci_cr0", PCIAddress: "0000:01:00.0", Evidence: e(cx3, 8)},
			{Path: "/dev/mst/mt4099_pciconf0", PCIAddress: "0000:01:00.0", Evidence: e(cx3, 11)},
		}},
		{bf3, []facts.MSTDevice{
			{Path: "/dev/mst/mt41692_pciconf0.1", PCIAddress: "03:00.1", RDMADevice: "mlx5_1", DeviceType: "BlueField3(rev:1)",
				Netdevs: []string{"p1", "pf1hpf", "en3f1pf1sf0"}, NUMANode: ip(-1), Evidence: e(bf3, 8)},
			{Path: "/dev/mst/mt41692_pciconf0", PCIAddress: "03:00.0", RDMADevice: "mlx5_0", DeviceType: "BlueField3(rev:1)",
				Netdevs: []string{"pf0hpf", "en3f0pf0sf0", "p0"}, NUMANode: ip(-1), Evidence: e(bf3, 10)},
		}},
		{cx4v, []facts.MSTDevice{
			{Path: "/dev/mst/mt4115_pciconf0.1", PCIAddress: "0004:01:00.1", RDMADevice: "mlx5_1", Netdev: "ib1",
				Netdevs: []string{"ib1"}, DeviceType: "ConnectX4(rev:0)", NUMANode: ip(1), Evidence: e(cx4v, 8)},
			{Path: "/dev/mst/mt4115_pciconf0", PCIAddress: "0004:01:00.0", RDMADevice: "mlx5_0", Netdev: "ib0",
				Netdevs: []string{"ib0"}, DeviceType: "ConnectX4(rev:0)", NUMANode: ip(1), Evidence: e(cx4v, 10)},
		}},
		// BlueField-2 functions without an RDMA device or netdev: empty cells shift the columns.
		{bf2, []facts.MSTDevice{
			{Path: "/dev/mst/mt41686_pciconf0", PCIAddress: "10:00.0", DeviceType: "BlueField2(rev:1)", NUMANode: ip(-1), Evidence: e(bf2, 5)},
			{Path: "/dev/mst/mt41686_pciconf0.1", PCIAddress: "10:00.1", DeviceType: "BlueField2(rev:1)", NUMANode: ip(-1), Evidence: e(bf2, 7)},
			{Path: "/dev/mst/mt49873_pciconf0.2", PCIAddress: "10:00.2", DeviceType: "BlueField2(rev:1)", NUMANode: ip(-1), Evidence: e(bf2, 9)},
		}},
	} {
		got, err := parse.MSTStatus(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
	got, err := parse.MSTStatus(fixtures.Read(t, three))
	if err != nil || len(got) != 6 || got[5].Path != "/dev/mst/mt4103_pci_cr2" || got[5].PCIAddress != "0000:1d:00.0" {
		t.Errorf("%s: %v %+v", three, err, got)
	}
}
