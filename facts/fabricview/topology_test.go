package fabricview_test

import (
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/fabricview"
)

// The topology ibdiagnet wrote of the NDR fabric of corpus 301 (ibdiagnet2.ibnetdiscover: 9
// switch and 263 CA blocks, each link printed from both ends) gives the 271 links its
// ibdiagnet2.log counts, and the same links as the net_dump and db_csv of that run.
func TestTopology301(t *testing.T) {
	topo := map[string]string{"ibdiagnet2.ibnetdiscover": corpus301 + "ibdiagnet2.ibnetdiscover",
		"ibstat": "ibstat/ndr-node01-fabric-301-guids.txt"}
	v := fabricview.New()
	v.Add("node01", snapshot(t, topo))
	f := v.Fabric()
	if f == nil || len(f.Links) != 271 {
		t.Fatalf("links from the topology alone: %v, want the 271 of ibdiagnet2.log", f)
	}
	// node01 mlx5_10 is cabled to leaf 0xb0cf0e0300e5b940 port 1 (1/1/1), as net_dump line 17 says.
	hp := hostPort(f, "node01", "mlx5_10", 1)
	if hp == nil || hp.Peer != "0xb0cf0e0300e5b940/1" {
		t.Errorf("node01 mlx5_10 port 1 not mapped to 0xb0cf0e0300e5b940/1 from the topology: %+v", hp)
	}
	leaf := portByID(f, "0xb0cf0e0300e5b940/1")
	if leaf == nil || leaf.Label != "1/1/1" || leaf.NodeType != "Switch" || len(leaf.Views) != 1 {
		t.Fatalf("leaf port: %+v", leaf)
	}
	if w := leaf.Views[0].WidthLanes; w == nil || *w != 4 || leaf.Views[0].Evidence["link"].Line == 0 {
		t.Errorf("leaf port view: %+v", leaf.Views[0])
	}

	dump := map[string]string{"ibdiagnet2.net_dump": corpus301 + "ibdiagnet2.net_dump",
		"ibdiagnet2.db_csv": corpus301 + "ibdiagnet2.db_csv"}
	alone := fabricview.New()
	alone.Add("node01", snapshot(t, dump))
	d := alone.Fabric()
	for k, p := range topo {
		dump[k] = p
	}
	both := fabricview.New()
	both.Add("node01", snapshot(t, dump))
	g := both.Fabric()
	// net_dump also lists the ports that are down (no topology line): the topology's ports
	// are among its ports and merge with them, none added.
	if len(g.Links) != 271 || len(g.Ports) != len(d.Ports) {
		t.Errorf("topology with net_dump and db_csv: %d links, %d ports; want 271 and the %d of net_dump and db_csv", len(g.Links), len(g.Ports), len(d.Ports))
	}
	for _, p := range f.Ports {
		if portByID(d, p.ID) == nil {
			t.Errorf("topology port %s is not a net_dump port", p.ID)
		}
	}
}

// A topology excerpt that holds one switch's block still links its ports to the CAs it names,
// and ties each CA's node GUID to the port GUID the line prints.
func TestTopologyExcerpt(t *testing.T) {
	v := fabricview.New()
	v.Add("node018", snapshot(t, map[string]string{"ibnetdiscover": "ibnetdiscover/topology-switchib-excerpt.txt"}))
	f := v.Fabric()
	if f == nil || len(f.Links) != 13 {
		t.Fatalf("links: %+v, want the 13 ports of the excerpt", f)
	}
	ca := portByID(f, "0x08c0eb0300ddc0f6/1")
	if ca == nil || ca.PortGUID != "0x08c0eb0300ddc0f6" || ca.NodeDescription != "node046 HCA-1" || ca.LID == nil || *ca.LID != 103 {
		t.Errorf("CA port of line [12]: %+v", ca)
	}
}
