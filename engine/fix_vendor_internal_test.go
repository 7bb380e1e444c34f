package engine

import (
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// TestSubjectVendor: a subject's vendor comes from positive evidence only (the driver's
// device name, ibv_devinfo vendor_id, a Mellanox PSID, the PCI function's vendor id, name or
// driver, the netdev's ethtool driver); a renamed device with nothing else, two vendors'
// evidence, or a fabric node's subject is unknown.
func TestSubjectVendor(t *testing.T) {
	one := 1
	s := &facts.Snapshot{
		Devices: []facts.Device{
			{Name: "irdma0", Ports: []facts.Port{{Number: 1, Netdev: "enp23s0f0"}}},
			{Name: "rocep61s0f1", VendorID: "0x02c9"},
			{Name: "rocep1s0f0", PCIAddress: "0000:01:00.0"},
			{Name: "rocep2s0f0", Ports: []facts.Port{{Number: 1, Netdev: "eth2"}}},
			{Name: "ibp3s0"},
			{Name: "mlx5_4", PCIAddress: "0000:04:00.0"},
			{Name: "mlx5_5", BoardID: "MT_0000000359"},
		},
		PCI: []facts.PCIFunction{
			{Address: "0000:01:00.0", Name: "Broadcom Inc. and subsidiaries BCM57508 NetXtreme-E 10Gb/25Gb/40Gb/50Gb/100Gb/200Gb Ethernet"},
			{Address: "0000:04:00.0", VendorID: "8086"},
		},
		Netdevs: []facts.Netdev{{Name: "enp23s0f0", Driver: "ice"}, {Name: "eth2", Driver: "qede"}, {Name: "eth9", Driver: "mlx5_core"}},
	}
	for _, tc := range []struct {
		sub  report.Subject
		want string
	}{
		{report.Subject{Device: "irdma0", Port: &one}, "Intel"}, // the name and the port's netdev agree
		{report.Subject{Device: "rocep61s0f1"}, "Mellanox"},
		{report.Subject{Device: "rocep1s0f0"}, "Broadcom"},
		{report.Subject{Device: "rocep2s0f0", Port: &one}, "QLogic"},
		{report.Subject{Device: "ibp3s0"}, ""},                      // renamed, nothing else
		{report.Subject{Device: "mlx5_4"}, ""},                      // mlx5 by name, Intel by PCI: disagree
		{report.Subject{Device: "mlx5_5"}, "Mellanox"},              // name and PSID
		{report.Subject{PCI: "0000:04:00.0"}, ""},                   // the device at it says mlx5: disagree
		{report.Subject{Netdev: "eth9"}, "Mellanox"},                // ethtool -i
		{report.Subject{Netdev: "eth7"}, ""},                        // not in the snapshot
		{report.Subject{NodeGUID: "0x0002c90300000001"}, ""},        // a fabric node
		{report.Subject{Device: "irdma0", PCI: "0000:01:00.0"}, ""}, // Intel by name, Broadcom by PCI
	} {
		if got, why := subjectVendor(s, tc.sub); got != tc.want {
			t.Errorf("%+v: %q (%s), want %q", tc.sub, got, why, tc.want)
		}
	}
}

// TestFixStepsVendor: a step for Mellanox adapters is left out on another vendor's board, with
// a last step saying so; kept when the vendor is unknown; a step left out for its port
// condition is not counted as left out for the vendor.
func TestFixStepsVendor(t *testing.T) {
	one := 1
	steps := []FixStep{
		{Fix: report.Fix{Command: "mlxlink -d {{pci}} -m"}, When: map[string][]string{"vendor": {"Mellanox"}}},
		{Fix: report.Fix{Command: "ethtool -m {{netdev}}"}},
	}
	intel := &facts.Snapshot{Devices: []facts.Device{{Name: "irdma0", Ports: []facts.Port{{Number: 1}}}}}
	got := fixSteps(steps, intel, report.Subject{Device: "irdma0", Port: &one, Netdev: "enp23s0f0"}, nil)
	if len(got) != 2 || got[0].Command != "ethtool -m enp23s0f0" || got[1].Command != "# Mellanox steps left out: an Intel adapter" ||
		got[1].Note != "the same needs Intel's own tools; the name irdma0 is given by the irdma driver" {
		t.Errorf("Intel board: %+v", got)
	}
	unknown := &facts.Snapshot{Devices: []facts.Device{{Name: "rocep23s0f0", Ports: []facts.Port{{Number: 1}}}}}
	if got := fixSteps(steps, unknown, report.Subject{Device: "rocep23s0f0", Port: &one}, nil); len(got) != 2 || got[0].Command != "mlxlink -d <pci> -m" {
		t.Errorf("unknown vendor: %+v", got)
	}
	portOnly := []FixStep{{Fix: report.Fix{Command: "mlxlink -a UP"}, When: map[string][]string{"vendor": {"Mellanox"}, "physical_state": {"Disabled"}}}}
	polling := &facts.Snapshot{Devices: []facts.Device{{Name: "irdma0", Ports: []facts.Port{{Number: 1, PhysicalState: "Polling"}}}}}
	if got := fixSteps(portOnly, polling, report.Subject{Device: "irdma0", Port: &one}, nil); len(got) != 0 {
		t.Errorf("left out for the port state, not the vendor: %+v", got)
	}
}

// TestFleetSubjectVendor: a fleet finding's vendor comes from the summaries of the nodes it
// names: the device its subject (or hca_device var) names there, each piece of evidence
// agreeing; a node the finding does not name does not count.
func TestFleetSubjectVendor(t *testing.T) {
	doc := &facts.Fleet{Nodes: []facts.NodeSummary{
		{Host: "node01", Devices: []facts.SummaryDevice{{Name: "irdma0"}, {Name: "mlx5_0", PSID: "MT_0000000223"}}},
		{Host: "node02", Devices: []facts.SummaryDevice{{Name: "irdma0"}, {Name: "rocep1s0", PCIAddress: "0000:01:00.0", DeviceType: "ConnectX6"}}},
		{Host: "node03", Devices: []facts.SummaryDevice{{Name: "mlx5_0"}}},
	}}
	for _, tc := range []struct {
		nodes []string
		sub   report.Subject
		vars  map[string]any
		want  string
	}{
		{[]string{"node01", "node02"}, report.Subject{Device: "irdma0"}, nil, "Intel"},
		{[]string{"node01", "node03"}, report.Subject{Device: "mlx5_0"}, nil, "Mellanox"},
		{[]string{"node02"}, report.Subject{PCI: "0000:01:00.0"}, nil, "Mellanox"},
		{[]string{"node01"}, report.Subject{NodeGUID: "0x0002c90300000001"}, map[string]any{"hca_device": "irdma0"}, "Intel"},
		{[]string{"node02"}, report.Subject{Device: "rocep9s0"}, nil, ""}, // not on that node
		{[]string{"node01"}, report.Subject{}, nil, ""},
	} {
		if got, why := fleetSubjectVendor(doc, tc.nodes, tc.sub, tc.vars); got != tc.want {
			t.Errorf("%v %+v %v: %q (%s), want %q", tc.nodes, tc.sub, tc.vars, got, why, tc.want)
		}
	}
}
