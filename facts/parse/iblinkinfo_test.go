package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestIBLinkInfoBackToBack(t *testing.T) {
	got, err := parse.IBLinkInfo(fixtures.Read(t, "iblinkinfo/back-to-back-ddr.txt"))
	if err != nil {
		t.Fatal(err)
	}
	l2 := `      0x0002c90300002779      4    1[  ] ==( 4X           5.0 Gbps Active/  LinkUp)==>       3    1[  ] "node02 mlx4_0" ( )`
	l4 := `      0x0002c90300002f79      3    1[  ] ==( 4X           5.0 Gbps Active/  LinkUp)==>       4    1[  ] "MT25408 ConnectX Mellanox Technologies" ( )`
	want := []facts.IBLink{
		{NodeDescription: "MT25408 ConnectX Mellanox Technologies", PortGUID: "0x0002c90300002779", LID: ibInt(4), Port: 1,
			WidthLanes: ibInt(4), SpeedGbps: ibF64(5), State: "Active", PhysicalState: "LinkUp",
			PeerLID: ibInt(3), PeerPort: ibInt(1), PeerDescription: "node02 mlx4_0", Evidence: ibEv(2, l2)},
		{NodeDescription: "node01 mlx4_0", PortGUID: "0x0002c90300002f79", LID: ibInt(3), Port: 1,
			WidthLanes: ibInt(4), SpeedGbps: ibF64(5), State: "Active", PhysicalState: "LinkUp",
			PeerLID: ibInt(4), PeerPort: ibInt(1), PeerDescription: "MT25408 ConnectX Mellanox Technologies", Evidence: ibEv(4, l4)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestIBLinkInfoSwitch(t *testing.T) {
	got, err := parse.IBLinkInfo(fixtures.Read(t, "iblinkinfo/quantum-switch-could-be.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 41 {
		t.Fatalf("got %d links, want 41", len(got))
	}
	down := facts.IBLink{NodeGUID: "0x08c0eb0300add04e", NodeDescription: "Quantum Mellanox Technologies", LID: ibInt(10), Port: 1,
		State: "Down", PhysicalState: "Polling",
		Evidence: ibEv(2, `          10    1[  ] ==(                Down/ Polling)==>             [  ] "" ( )`)}
	could := facts.IBLink{NodeGUID: "0x08c0eb0300add04e", NodeDescription: "Quantum Mellanox Technologies", LID: ibInt(10), Port: 21,
		WidthLanes: ibInt(4), SpeedGbps: ibF64(25.78125), State: "Active", PhysicalState: "LinkUp",
		PeerLID: ibInt(40), PeerPort: ibInt(1), PeerDescription: "node3 HCA-2", CouldBe: "Could be 53.125 Gbps",
		Evidence: ibEv(22, `          10   21[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>      40    1[  ] "node3 HCA-2" ( Could be 53.125 Gbps)`)}
	if diff := cmp.Diff([]facts.IBLink{down, could}, []facts.IBLink{got[0], got[20]}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got[39].PeerDescription != "MF0;d32-03-1:MQM8700/U1" || *got[39].PeerPort != 40 {
		t.Errorf("port 40 peer = %q/%v", got[39].PeerDescription, got[39].PeerPort)
	}
}

func TestIBLinkInfoMixedNodes(t *testing.T) {
	got, err := parse.IBLinkInfo(fixtures.Read(t, "iblinkinfo/qdr-switch-polling.txt"))
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]int{}
	for _, l := range got {
		states[l.State+"/"+l.PhysicalState]++
	}
	if diff := cmp.Diff(map[string]int{"Active/LinkUp": 18, "Down/Polling": 9}, states); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func FuzzIBLinkInfo(f *testing.F) {
	ibSeed(f, "iblinkinfo")
	f.Fuzz(func(t *testing.T, b []byte) {
		parse.IBLinkInfo(b) //nolint:errcheck // only panics matter here
	})
}
