package fabricview_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/fabricview"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func portByID(f *facts.FleetFabric, id string) *facts.FleetFabricPort {
	for i := range f.Ports {
		if f.Ports[i].ID == id {
			return &f.Ports[i]
		}
	}
	return nil
}

func hostPort(f *facts.FleetFabric, host, dev string, port int) *facts.FabricHostPort {
	for _, h := range f.Hosts {
		for i := range h.Ports {
			if h.Host == host && h.Ports[i].Device == dev && h.Ports[i].Port == port {
				return &h.Ports[i]
			}
		}
	}
	return nil
}

// The NDR fabric of corpus 301 seen by two hosts: node01 ran ibdiagnet2's default run, node02
// has the net_dump of an earlier run. ibdiagnet2.log says "Total number of links : 271".
func TestFabric301TwoHosts(t *testing.T) {
	v := fabricview.New()
	for h, s := range fabric301(t) {
		v.Add(h, s)
	}
	f := v.Fabric()
	if f == nil {
		t.Fatal("no fabric")
	}
	if len(f.Links) != 271 {
		t.Errorf("links = %d, want the 271 of ibdiagnet2.log", len(f.Links))
	}
	// 9 switches, 256 CAs and 7 SHARP aggregation nodes (log: 272 nodes); the 8 leaves share
	// the description "Quantum-2 Mellanox Technologies" and stay 8 nodes.
	if len(f.Nodes) != 272 {
		t.Errorf("nodes = %d, want 272", len(f.Nodes))
	}
	leaves := 0
	for _, n := range f.Nodes {
		if n.Description == "Quantum-2 Mellanox Technologies" {
			leaves++
		}
	}
	if leaves != 8 {
		t.Errorf("%d nodes named \"Quantum-2 Mellanox Technologies\", want 8 (a description is not an identity)", leaves)
	}
	subnets := map[string]bool{}
	for _, p := range f.Ports {
		subnets[p.Subnet] = true
	}
	if len(subnets) != 1 {
		t.Errorf("%d subnets, want 1", len(subnets))
	}

	// node01 mlx5_10 is cabled to leaf 0xb0cf0e0300e5b940 port 1 (1/1/1): net_dump line 17.
	hp := hostPort(f, "node01", "mlx5_10", 1)
	if hp == nil || hp.Peer != "0xb0cf0e0300e5b940/1" {
		t.Fatalf("node01 mlx5_10 port 1 not mapped to 0xb0cf0e0300e5b940/1: %+v", hp)
	}
	peer := portByID(f, hp.Peer)
	if peer == nil || peer.NodeType != "Switch" || peer.Label != "1/1/1" || peer.NodeDescription != "Quantum-2 Mellanox Technologies" {
		t.Errorf("node01 mlx5_10's peer port: %+v", peer)
	}
	if hp.FabricPort != "0x5c25730300c06f60/1" || hp.Evidence["port_guid"].Text != "\t\tPort GUID: 0x5c25730300c06f60" {
		t.Errorf("node01 mlx5_10: fabric port %q, port_guid evidence %+v", hp.FabricPort, hp.Evidence["port_guid"])
	}
	// node02's own net_dump has no CA ports: its mapping comes from node01's ibdiagnet2 run.
	hp = hostPort(f, "node02", "mlx5_10", 1)
	if hp == nil || hp.Peer != "0xb0cf0e0300e5b940/2" || portByID(f, hp.Peer).Label != "1/1/2" {
		t.Errorf("node02 mlx5_10 port 1 = %+v, want leaf 0xb0cf0e0300e5b940 port 2 (1/1/2)", hp)
	}

	// The leaf's port 1 as each host saw it, each with its own line.
	p := portByID(f, "0xb0cf0e0300e5b940/1")
	if p == nil || len(p.Views) != 2 {
		t.Fatalf("leaf port 1: %+v", p)
	}
	if p.Views[0].Host != "node01" || p.Views[1].Host != "node02" {
		t.Errorf("views by %s, %s; want node01, node02", p.Views[0].Host, p.Views[1].Host)
	}
	if diff := cmp.Diff([]string{"ibdiagnet2_db_csv", "ibdiagnet2_net_dump", "ibdiagnet2_pm"}, p.Views[0].Sources); diff != "" {
		t.Errorf("node01 view sources (-want +got):\n%s", diff)
	}
	e := p.Views[1].Evidence["peer_guid"]
	if e.Host != "node02" || e.Path != "ibdiagnet2.net_dump" || !strings.Contains(e.Text, "0x5c25730300c06f60") {
		t.Errorf("node02's evidence of leaf port 1: %+v", e)
	}
	if p.Views[0].Counters == nil || p.Views[1].Counters != nil {
		t.Errorf("counters: node01 (pm) %v, node02 (net_dump only) %v", p.Views[0].Counters, p.Views[1].Counters)
	}
	if diff := cmp.Diff([]string{"node01"}, portByID(f, "0x5c25730300c06f60/1").Hosts); diff != "" {
		t.Errorf("owner of node01 mlx5_10's port (-want +got):\n%s", diff)
	}
}

// Corpus 010: two ConnectX DDR HCAs back to back; one host's iblinkinfo shows both ends, tied
// by their LIDs (3 and 4) inside the one file, and its ibstat names its own port GUID. The far
// CA is known by its port GUID alone: ibhosts names node GUID 0x0002c90300002778, but nothing
// says that port 0x0002c90300002779 is that node's (mlx4 numbers them so; that is not proof).
func TestBackToBack010(t *testing.T) {
	const c = "corpus/010-archwiki-mlx4-ddr-back-to-back-ipoib-group-rate/"
	v := fabricview.New()
	v.Add("node01", snapshot(t, map[string]string{"iblinkinfo": c + "iblinkinfo", "ibstat": c + "ibstat", "ibhosts": c + "ibhosts"}))
	f := v.Fabric()
	if len(f.Links) != 1 {
		t.Fatalf("links = %+v, want 1", f.Links)
	}
	l := f.Links[0]
	if l.A != "0x0002c90300002779/1" || l.B != "0x0002c90300002f78/1" || len(l.Evidence) != 2 {
		t.Errorf("link %s <-> %s with %d lines, want 0x0002c90300002779/1 <-> 0x0002c90300002f78/1 from both lines", l.A, l.B, len(l.Evidence))
	}
	hp := hostPort(f, "node01", "mlx4_0", 1)
	if hp == nil || hp.Peer != "0x0002c90300002779/1" || portByID(f, hp.Peer).NodeType != "CA" {
		t.Errorf("mlx4_0 port 1 peer = %+v, want the other CA's port 0x0002c90300002779", hp)
	}
	if p := portByID(f, "0x0002c90300002f78/1"); p.PortGUID != "0x0002c90300002f79" || p.NodeDescription != "node01 mlx4_0" {
		t.Errorf("node01's port: %+v (node GUID from its ibstat, port GUID from iblinkinfo and ibstat)", p)
	}
	// Port 2 is Down/Polling and in no capture: not in the fabric, no peer.
	if hp := hostPort(f, "node01", "mlx4_0", 2); hp == nil || hp.FabricPort != "" || hp.Peer != "" {
		t.Errorf("mlx4_0 port 2 = %+v, want no fabric port", hp)
	}
}

// sminfo of four hosts of one cluster (fixtures/sminfo/wrapped-multi-node.txt, one section per
// host, as the cluster shell printed them), each a host of its own.
func TestSMViews(t *testing.T) {
	v := fabricview.New()
	sections := strings.Split(string(fixtures.Read(t, "sminfo/wrapped-multi-node.txt")), "--------- ")
	hosts := 0
	for _, sec := range sections[1:5] {
		host, out, _ := strings.Cut(sec, "---------\n")
		v.Add(host, snapshotOf(t, "sminfo", out))
		hosts++
	}
	f := v.Fabric()
	if len(f.SMViews) != hosts {
		t.Fatalf("%d sm views, want %d", len(f.SMViews), hosts)
	}
	for i, sm := range f.SMViews {
		if sm.Host != fmt.Sprintf("node%02d", i+1) || sm.SMGUID != "0x0002c90200259201" || sm.State != "SMINFO_MASTER" || *sm.Priority != 0 {
			t.Errorf("sm view %d = %+v", i, sm)
		}
		if sm.Subnet != "" {
			t.Errorf("%s: subnet %q without any port of it in the fabric", sm.Host, sm.Subnet)
		}
	}
}

// The result does not depend on the order or concurrency of Add.
func TestDeterministic(t *testing.T) {
	snaps := fabric301(t)
	a := fabricview.New()
	a.Add("node01", snaps["node01"])
	a.Add("node02", snaps["node02"])
	b := fabricview.New()
	var wg sync.WaitGroup
	for _, h := range []string{"node02", "node01"} {
		wg.Add(1)
		go func() { defer wg.Done(); b.Add(h, snaps[h]) }()
	}
	wg.Wait()
	if diff := cmp.Diff(a.Fabric(), b.Fabric()); diff != "" {
		t.Errorf("order changed the view (-a +b):\n%s", diff)
	}
}

// The view keeps nothing of the snapshot: changing it after Add changes nothing.
func TestCopies(t *testing.T) {
	s := fabric301(t)["node01"]
	v := fabricview.New()
	v.Add("node01", s)
	before := v.Fabric()
	for i := range s.Fabric.Ports {
		for k := range s.Fabric.Ports[i].Counters {
			s.Fabric.Ports[i].Counters[k] = -1
		}
	}
	if diff := cmp.Diff(before, v.Fabric()); diff != "" {
		t.Errorf("the view shares the snapshot's counters (-before +after):\n%s", diff)
	}
}

// Bounds: at most MaxViews views per port (the lowest host labels), MaxPorts ports.
func TestBounds(t *testing.T) {
	const c = "corpus/010-archwiki-mlx4-ddr-back-to-back-ipoib-group-rate/"
	s := snapshot(t, map[string]string{"iblinkinfo": c + "iblinkinfo"})
	v := fabricview.New()
	for i := 20; i >= 1; i-- {
		v.Add(fmt.Sprintf("node%02d", i), s)
	}
	f := v.Fabric()
	p := f.Ports[0]
	if len(p.Views) != fabricview.MaxViews || p.ViewsDropped != 20-fabricview.MaxViews {
		t.Errorf("%d views, %d dropped; want %d, %d", len(p.Views), p.ViewsDropped, fabricview.MaxViews, 20-fabricview.MaxViews)
	}
	if last := p.Views[len(p.Views)-1].Host; last != fmt.Sprintf("node%02d", fabricview.MaxViews) {
		t.Errorf("last view kept is %s's", last)
	}
	if n := len(f.Links[0].Evidence); n != fabricview.MaxViews {
		t.Errorf("link evidence: %d lines, want %d", n, fabricview.MaxViews)
	}

	small := fabricview.New()
	fabricview.SetLimits(small, 100, 10)
	small.Add("node01", fabric301(t)["node01"])
	f = small.Fabric()
	if len(f.Ports) > 100 || f.DroppedPorts == 0 || len(f.Links) > 10 || f.DroppedLinks == 0 {
		t.Errorf("capped at 100 ports, 10 links: %d ports (%d dropped), %d links (%d dropped)", len(f.Ports), f.DroppedPorts, len(f.Links), f.DroppedLinks)
	}
}

func TestNoFabric(t *testing.T) {
	v := fabricview.New()
	v.Add("node01", snapshot(t, map[string]string{"ibstat": "ibstat/cx4-back-to-back-active-node01.txt"}))
	v.Add("node02", nil)
	if f := v.Fabric(); f != nil {
		t.Errorf("an ibstat alone made a fabric: %+v", f)
	}
}

// Hosts whose own ports are equal (copies of one node image: the same captures, the same
// GUIDs) share one list, as the fleet document and its OPA value then do; their lines name
// no host (they are the host's), and a host with other ports keeps its own.
func TestHostsShareEqualPorts(t *testing.T) {
	const c = "corpus/010-archwiki-mlx4-ddr-back-to-back-ipoib-group-rate/"
	image := map[string]string{"iblinkinfo": c + "iblinkinfo", "ibstat": c + "ibstat"}
	v := fabricview.New()
	v.Add("node01", snapshot(t, image))
	v.Add("node02", snapshot(t, image))
	v.Add("node03", snapshot(t, map[string]string{"ibstat": "ibstat/cx4-back-to-back-active-node01.txt"}))
	f := v.Fabric()
	if len(f.Hosts) != 3 {
		t.Fatalf("%d hosts, want 3", len(f.Hosts))
	}
	a, b, other := f.Hosts[0], f.Hosts[1], f.Hosts[2]
	if len(a.Ports) == 0 || &a.Ports[0] != &b.Ports[0] {
		t.Errorf("node01 and node02 hold equal ports in two lists: %+v, %+v", a.Ports, b.Ports)
	}
	if len(other.Ports) == 0 || &other.Ports[0] == &a.Ports[0] {
		t.Errorf("node03's ports are node01's: %+v", other.Ports)
	}
	hp := hostPort(f, "node02", "mlx4_0", 1)
	if e := hp.Evidence["state"]; e.Source != "ibstat" || e.Path != "ibstat" || !strings.Contains(e.Text, "Active") {
		t.Errorf("node02 mlx4_0 port 1 state line = %+v, want its ibstat's", e)
	}
}
