package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestInterruptsGrepExcerpt(t *testing.T) {
	got, err := parse.Interrupts(fixtures.Read(t, "proc_interrupts/ryzen-mlx5-grep.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 15 {
		t.Fatalf("%d IRQs, want 15", len(got))
	}
	// No CPU header: 12 count columns mean 12 CPUs.
	want := []facts.IRQ{
		{Number: 98, Name: "mlx5_async0@pci:0000:01:00.0", Kind: "async", PCIAddress: "0000:01:00.0", Total: 23274,
			PerCPU: []int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 23274, 0}},
		{Number: 109, Name: "mlx5_comp1@pci:0000:01:00.0", Kind: "comp", PCIAddress: "0000:01:00.0", Total: 395220,
			PerCPU: []int64{0, 2, 0, 0, 0, 0, 0, 0, 395218, 0, 0, 0}},
	}
	if diff := cmp.Diff(want, []facts.IRQ{got[0], got[4]}, noEvidence); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if e := got[0].Evidence["name"]; e.Line != 1 {
		t.Errorf("evidence %+v", e)
	}
}

func TestInterruptsFull(t *testing.T) {
	got, err := parse.Interrupts(fixtures.Read(t, "proc_interrupts/azure-cx-vf-8cpu-all-on-cpu0.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var relevant []facts.IRQ
	for _, q := range got {
		if parse.RelevantIRQ(q, nil) {
			relevant = append(relevant, q)
		}
	}
	// 31 numbered IRQs (NMI, LOC, ... are not), 22 of them mlx5 on two VFs.
	if len(got) != 31 || len(relevant) != 22 {
		t.Fatalf("%d IRQs, %d relevant; want 31, 22", len(got), len(relevant))
	}
	want := []facts.IRQ{
		{Number: 25, Name: "mlx5_cmd_eq@pci:8b76:00:02.0", Kind: "ctrl", PCIAddress: "8b76:00:02.0", Total: 19694,
			PerCPU: []int64{19694, 0, 0, 0, 0, 0, 0, 0}},
		{Number: 47, Name: "mlx5_comp7@pci:83a4:00:02.0", Kind: "comp", PCIAddress: "83a4:00:02.0", Total: 12610,
			PerCPU: []int64{12610, 0, 0, 0, 0, 0, 0, 0}},
	}
	if diff := cmp.Diff(want, []facts.IRQ{relevant[1], relevant[21]}, noEvidence); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got[2].Name != "" || got[2].Total != 941 {
		t.Errorf("IRQ 3 without action name: %+v", got[2])
	}
}

func TestMlnxQoS(t *testing.T) {
	got, evs, err := parse.MlnxQoS(fixtures.Read(t, "mlnx_qos/dscp-pfc3.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&facts.QoSState{Trust: "dscp", PFCEnabled: []int{3}}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	want := facts.EvidenceMap{"qos.trust": ev(2, "Priority trust state: dscp"),
		"qos.pfc_enabled": ev(15, "        enabled     0   0   0   1   0   0   0   0   ")}
	if diff := cmp.Diff(want, evs); diff != "" {
		t.Errorf("evidence (-want +got):\n%s", diff)
	}
}

func TestSysfsNet(t *testing.T) {
	got, err := parse.SysfsNet("ib0", map[string][]byte{"mtu": []byte("4092\n"), "operstate": []byte("down\n"),
		"carrier": []byte("0\n"), "type": []byte("32\n"), "mode": []byte("datagram\n"), "device/local_cpulist": []byte("0-3\n"),
		"device/numa_node": []byte("-1\n"), "ecn/roce_rp/enable/3": []byte("0\n"), "ecn/roce_np/enable/3": []byte("1\n")})
	if err != nil {
		t.Fatal(err)
	}
	want := facts.Netdev{Name: "ib0", Kind: "ipoib", IPoIBMode: "datagram", MTU: ip(4092), OperState: "DOWN", Carrier: bp(false),
		NUMANode: ip(-1), LocalCPUList: "0-3", LocalCPUs: []int{0, 1, 2, 3},
		ECN: &facts.ECNState{NPEnabled: map[string]bool{"3": true}, RPEnabled: map[string]bool{"3": false}}}
	if diff := cmp.Diff(want, got, noEvidence); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if e := got.Evidence["mtu"]; e != (facts.Evidence{Path: "mtu", Text: "4092"}) {
		t.Errorf("evidence %+v", e)
	}
	if _, err := parse.SysfsNet("eth2", map[string][]byte{"carrier": []byte("bogus")}); err == nil {
		t.Error("carrier \"bogus\" accepted")
	}
}
