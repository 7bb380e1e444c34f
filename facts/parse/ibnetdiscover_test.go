package parse_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestIBNetDiscoverPorts(t *testing.T) {
	got, err := parse.IBNetDiscover(fixtures.Read(t, "ibnetdiscover/ports-hdr-sharp.txt"))
	if err != nil {
		t.Fatal(err)
	}
	l1 := "CA    78  1 0x946dae0300630bfe 4x HDR - SW    51 81 0x946dae0300630bf6 ( 'Mellanox Technologies Aggregation Node' - 'leaf01 ' )"
	l6 := "SW   478 22 0x0002c9020040f160 4x QDR                                   'Infiniscale-IV Mellanox Technologies'"
	want := []facts.FabricNode{
		{Type: "Switch", GUID: "0x0002c9020040f160", Description: "Infiniscale-IV Mellanox Technologies", LID: ibInt(478), Speeds: []string{"4xQDR"}, Evidence: ibEv(6, l6)},
		{Type: "Switch", GUID: "0x946dae030053ec1a", Description: " spine03 ", LID: ibInt(9), Speeds: []string{"4xHDR"},
			Evidence: ibEv(5, "SW     9 81 0x946dae030053ec1a 4x HDR - CA    60  1 0x946dae0300630bfe ( ' spine03 ' - 'Mellanox Technologies Aggregation Node' )")},
		{Type: "Switch", GUID: "0x946dae0300618c82", Description: "spine01 ", LID: ibInt(24), Speeds: []string{"4xSDR"},
			Evidence: ibEv(3, "SW    24 1 0x946dae0300618c82 4x SDR                                    'spine01 '")},
		{Type: "Switch", GUID: "0x946dae0300618c83", Description: " spine02 ", LID: ibInt(25), Speeds: []string{"4xSDR"},
			Evidence: ibEv(4, "SW    25 1 0x946dae0300618c83 4x SDR                                    ' spine02 '")},
		{Type: "Switch", GUID: "0x946dae0300630bf6", Description: "leaf01 ", LID: ibInt(51), Speeds: []string{"4xHDR"}, Evidence: ibEv(1, l1)},
		{Type: "CA", GUID: "0x946dae0300630bfe", Description: "Mellanox Technologies Aggregation Node", LID: ibInt(78), Speeds: []string{"4xHDR"}, Evidence: ibEv(1, l1)},
		{Type: "CA", GUID: "0xb83fd20300da1138", Description: "node01 mlx5_3", LID: ibInt(88), Speeds: []string{"4xHDR"},
			Evidence: ibEv(2, "CA    88  1 0xb83fd20300da1138 4x HDR - SW    51 79 0x946dae0300630bf6 ( 'node01 mlx5_3' - 'leaf01 ' )")},
	}
	if diff := cmp.Diff(parse.FabricNodesOutput{Nodes: want}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestIBNetDiscoverNodeLists(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    []string // type guid "desc" lid
	}{
		{"ibnetdiscover/ibhosts-ddr.txt", []string{"CA 0x0002c90300002778 MT25408 ConnectX Mellanox Technologies <nil>", "CA 0x0002c90300002f78 node01 mlx4_0 <nil>"}},
		{"ibnetdiscover/ibnodes-back-to-back.txt", []string{"CA 0xec0d9a030044c158 node02 ibp4s0 <nil>", "CA 0xec0d9a030044c34c node01 ibp4s0 <nil>"}},
		{"ibnetdiscover/ibswitches-quantum.txt", []string{"Switch 0x08c0eb0300add04e Quantum Mellanox Technologies 10", "Switch 0x08c0eb0300f6fc26 MF0;d32-03-1:MQM8700/U1 4"}},
		{"ibnetdiscover/topology-switchib-excerpt.txt", []string{
			"CA 0x08c0eb0300ddc0f6 node046 HCA-1 103", "CA 0x506b4b03003fa99a node010 HCA-1 69", "CA 0x506b4b03003fa9aa node020 HCA-1 89",
			"CA 0x506b4b03003fa9b6 node018 HCA-1 67", "CA 0x506b4b030043f9b6 node002 HCA-1 75", "CA 0x506b4b030043f9ba node016 HCA-1 76",
			"CA 0x506b4b030043f9c6 node014 HCA-1 86", "CA 0x506b4b030043f9da node006 HCA-1 61", "CA 0x506b4b030043f9de node004 HCA-1 55",
			"CA 0x506b4b030043f9f6 gpu001 HCA-1 2", "CA 0x506b4b030043fa5e node012 HCA-1 51", "CA 0x506b4b030043fa66 node008 HCA-1 78",
			"Switch 0xec0d9a0300ec81e0 SwitchIB Mellanox Technologies 21", "Switch 0xec0d9a0300ec8240 SwitchIB Mellanox Technologies 48"}},
	} {
		got, err := parse.IBNetDiscover(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		var s []string
		for _, n := range got.Nodes {
			lid := "<nil>"
			if n.LID != nil {
				lid = fmt.Sprint(*n.LID)
			}
			s = append(s, n.Type+" "+n.GUID+" "+n.Description+" "+lid)
		}
		if diff := cmp.Diff(tc.want, s); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func TestIBNetDiscoverRefusals(t *testing.T) {
	for fixture, msg := range map[string]string{
		"ibnetdiscover/client-register-failed.txt":         "ibwarn: [298726] mad_rpc_open_port: client_register for mgmt 1 failed",
		"ibnetdiscover/ibhosts-client-register-failed.txt": "ibwarn: [4150] mad_rpc_open_port: client_register for mgmt 1 failed",
	} {
		got, err := parse.IBNetDiscover(fixtures.Read(t, fixture))
		if err != nil {
			t.Fatalf("%s: %v", fixture, err)
		}
		if got.Refusal == nil || got.Refusal.Message != msg || len(got.Nodes) != 0 {
			t.Errorf("%s: refusal %+v, %d nodes", fixture, got.Refusal, len(got.Nodes))
		}
	}
}

func FuzzIBNetDiscover(f *testing.F) {
	ibSeed(f, "ibnetdiscover")
	f.Fuzz(func(t *testing.T, b []byte) {
		parse.IBNetDiscover(b) //nolint:errcheck // only panics matter here
	})
}
