package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestRDMALink(t *testing.T) {
	got, err := parse.RDMALink(fixtures.Read(t, "rdma_link/dgx-a100.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 9 {
		t.Fatalf("got %d devices, want 9", len(got))
	}
	l2 := "link mlx5_1/1 subnet_prefix fe80:0000:0000:0000 lid 65535 sm_lid 0 lmc 0 state DOWN physical_state DISABLED"
	l5 := "link mlx5_4/1 state ACTIVE physical_state LINK_UP netdev enp97s0f0"
	want := []facts.Device{
		{Name: "mlx5_1", Evidence: facts.EvidenceMap{"name": ibEv(2, l2)}, Ports: []facts.Port{{Number: 1,
			SubnetPrefix: "fe80:0000:0000:0000", LID: ibInt(65535), SMLID: ibInt(0), LMC: ibInt(0), State: "Down", PhysicalState: "Disabled",
			Evidence: facts.EvidenceMap{"number": ibEv(2, l2), "subnet_prefix": ibEv(2, l2), "lid": ibEv(2, l2), "sm_lid": ibEv(2, l2),
				"lmc": ibEv(2, l2), "state": ibEv(2, l2), "physical_state": ibEv(2, l2)}}}},
		{Name: "mlx5_4", Evidence: facts.EvidenceMap{"name": ibEv(5, l5)}, Ports: []facts.Port{{Number: 1,
			State: "Active", PhysicalState: "LinkUp", Netdev: "enp97s0f0",
			Evidence: facts.EvidenceMap{"number": ibEv(5, l5), "state": ibEv(5, l5), "physical_state": ibEv(5, l5), "netdev": ibEv(5, l5)}}}},
	}
	if diff := cmp.Diff(want, []facts.Device{got[1], got[4]}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestRDMALinkIndexPrefixed(t *testing.T) {
	got, err := parse.RDMALink(fixtures.Read(t, "rdma_link/index-prefixed.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range got {
		names = append(names, d.Name+"/"+d.Ports[0].State)
	}
	want := []string{"mlx5_0/Down", "mlx5_2/Active", "mlx5_4/Down", "mlx5_5/Active", "mlx5_3/Active", "mlx5_1/Active"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if p := got[3].Ports[0]; *p.LID != 12 || *p.SMLID != 4 {
		t.Errorf("mlx5_5: lid %d sm_lid %d, want 12 4", *p.LID, *p.SMLID)
	}
}

func FuzzRDMALink(f *testing.F) {
	ibSeed(f, "rdma_link")
	f.Fuzz(func(t *testing.T, b []byte) {
		parse.RDMALink(b) //nolint:errcheck // only panics matter here
	})
}
