package parse_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// The port lines of a topology are links: a switch's port with its label, a CA's port with its
// port GUID, and the peer of each.
func TestIBNetDiscoverTopologyLinks(t *testing.T) {
	out, err := parse.IBNetDiscover(fixtures.Read(t, ibdiag301+"ibdiagnet2.ibnetdiscover"))
	if err != nil {
		t.Fatal(err)
	}
	// 9 switch and 263 CA blocks; each of the 271 links is printed from both ends.
	if len(out.Links) != 542 {
		t.Fatalf("%d links, want 542", len(out.Links))
	}
	byLine := map[int]facts.TopologyLink{}
	for _, l := range out.Links {
		byLine[l.Evidence.Line] = l
	}
	ev := func(l facts.TopologyLink) facts.TopologyLink { l.Evidence = facts.Evidence{}; return l }
	for line, want := range map[int]facts.TopologyLink{
		// [1](1/1/1) "H-5c25730300e6706e"[1](5c25730300e6706e)      # "node01 mlx5_8" lid 164 4xNDR
		35: {NodeGUID: "0xfc6a1c030091cf00", NodeType: "Switch", Port: 1, Label: "1/1/1", PeerNodeGUID: "0x5c25730300e6706e",
			PeerType: "CA", PeerPort: 1, PeerPortGUID: "0x5c25730300e6706e", PeerDescription: "node01 mlx5_8", PeerLID: ip(164), Speed: "4xNDR"},
		// [1](B134D0F0/0/0/1)(5c25730300e6706e) "S-fc6a1c030091cf00"[1] # lid 164 lmc 0 "Quantum-2 Mellanox Technologies" lid 13 4xNDR
		466: {NodeGUID: "0x5c25730300e6706e", NodeType: "CA", Port: 1, PortGUID: "0x5c25730300e6706e", LID: ip(164),
			PeerNodeGUID: "0xfc6a1c030091cf00", PeerType: "Switch", PeerPort: 1, PeerDescription: "Quantum-2 Mellanox Technologies",
			PeerLID: ip(13), Speed: "4xNDR"},
	} {
		if diff := cmp.Diff(want, ev(byLine[line])); diff != "" {
			t.Errorf("line %d (-want +got):\n%s", line, diff)
		}
	}

	// ibnetdiscover's own topology: tabs, a CA peer whose port GUID lost its leading zero.
	ex, err := parse.IBNetDiscover(fixtures.Read(t, "ibnetdiscover/topology-switchib-excerpt.txt"))
	if err != nil || len(ex.Links) != 13 {
		t.Fatalf("excerpt: %d links, %v; want 13", len(ex.Links), err)
	}
	if l := ex.Links[11]; l.Port != 12 || l.PeerPortGUID != "0x08c0eb0300ddc0f6" || l.Label != "" || l.PeerLID == nil || *l.PeerLID != 103 {
		t.Errorf("port [12]: %+v", l)
	}
	// --ports lines name no block: their GUIDs are kept as nodes, not as links.
	ports, _ := parse.IBNetDiscover(fixtures.Read(t, "ibnetdiscover/ports-hdr-sharp.txt"))
	if len(ports.Links) != 0 || len(ports.Nodes) == 0 {
		t.Errorf("--ports: %d links, %d nodes", len(ports.Links), len(ports.Nodes))
	}
}

// Every real capture of the discovery tools parses without a problem; a damaged line is named
// and the rest kept.
func TestIBNetDiscoverProblems(t *testing.T) {
	for _, f := range []string{ibdiag301 + "ibdiagnet2.ibnetdiscover", "ibnetdiscover/topology-switchib-excerpt.txt",
		"ibnetdiscover/ports-hdr-sharp.txt", "ibnetdiscover/client-register-failed.txt", "ibnetdiscover/ibhosts-ddr.txt",
		"ibnetdiscover/ibhosts-client-register-failed.txt", "ibnetdiscover/ibnodes-back-to-back.txt", "ibnetdiscover/ibswitches-quantum.txt"} {
		if _, err := parse.IBNetDiscover(fixtures.Read(t, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	real := string(fixtures.Read(t, "ibnetdiscover/topology-switchib-excerpt.txt"))
	damaged := strings.Replace(real, `[3]	"H-506b4b030043f9c6"[1]`, `[3]	"H-506b4b030043f9c6"[`, 1)
	out, err := parse.IBNetDiscover([]byte(damaged))
	p, ok := parse.AsProblems(err)
	if !ok || len(p) != 1 || p[0].Line != 12 || len(out.Links) != 12 {
		t.Errorf("damaged port [3]: %v, %d links; want line 12 named and the 12 other links", err, len(out.Links))
	}
}
