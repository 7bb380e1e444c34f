package parse_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestIPAddr(t *testing.T) {
	bmu := []string{"BROADCAST", "MULTICAST", "UP"}
	for _, tc := range []struct {
		fixture string
		want    []facts.Netdev
	}{
		{"ip_addr/ipoib-ib0-ipv6-global.txt", []facts.Netdev{{Name: "ib0", Kind: "ipoib", MTU: ip(65520), OperState: "UP",
			AdminUp: bp(true), Carrier: bp(true), Flags: append(bmu, "LOWER_UP"),
			LinkAddress: "80:00:00:48:fe:80:00:00:00:00:00:01:00:02:c9:03:00:4e:47:cf", IPv4: []string{"192.0.2.10/16", "192.0.2.20/16"},
			IPv6: []facts.IPv6Address{{Address: "2001:db8:0:0:214:5eff:fe15:8496/64", Scope: "global"},
				{Address: "fd57::214:5eff:fe15:8496/64", Scope: "global"}, {Address: "fe80::202:c903:4e:47cf/64", Scope: "link"}}}}},
		// UP without LOWER_UP and without NO-CARRIER: carrier unknown; DAD still tentative.
		{"ip_addr/ipoib-ib1-no-lower-up-tentative.txt", []facts.Netdev{{Name: "ib1", Kind: "ipoib", MTU: ip(65520), OperState: "UNKNOWN",
			AdminUp: bp(true), Flags: bmu, LinkAddress: "80:00:00:49:fe:80:00:00:00:00:00:00:00:02:c9:03:00:4e:47:d0",
			IPv4: []string{"192.0.2.11/16", "192.0.2.21/16"},
			IPv6: []facts.IPv6Address{{Address: "2001:db8:1:0:214:5eff:fe15:8496/64", Scope: "global", Flags: []string{"tentative"}},
				{Address: "fd58::214:5eff:fe15:8496/64", Scope: "global", Flags: []string{"tentative"}}}}}},
		{"ip_addr/ipoib-no-carrier.txt", []facts.Netdev{{Name: "ib0", Kind: "ipoib", MTU: ip(4092), OperState: "DOWN",
			AdminUp: bp(true), Carrier: bp(false), Flags: []string{"NO-CARRIER", "BROADCAST", "MULTICAST", "UP"},
			LinkAddress: "20:00:10:29:fe:80:00:00:00:00:00:00:08:c0:eb:03:00:ea:50:e6", IPv4: []string{"172.16.242.47/24"}}}},
		{"ip_addr/brief.txt", []facts.Netdev{
			{Name: "eno1", OperState: "UP", IPv4: []string{"192.168.128.31/22"}, IPv6: []facts.IPv6Address{{Address: "fe80::7ec2:55ff:fe9e:9ee2/64"}}},
			{Name: "eno2", OperState: "DOWN"},
			{Name: "ibs10f0", OperState: "DOWN", IPv4: []string{"192.168.200.1/24"}},
			{Name: "ibs10f1", OperState: "DOWN"},
			{Name: "tmfifo_net0", OperState: "UNKNOWN", IPv4: []string{"192.168.100.1/30"}, IPv6: []facts.IPv6Address{{Address: "fe80::21a:caff:feff:ff02/64"}}}}},
	} {
		got, err := parse.IPAddr(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got, noEvidence); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

// P_Key children name their parent ("ib0.beef@ib0") and carry M-DOWN while it is down.
func TestIPoIBChildren(t *testing.T) {
	type row struct {
		Name, Parent, OperState string
		AdminUp                 bool
		MTU                     int
		MDown                   bool
	}
	for _, tc := range []struct {
		fixture string
		want    []row
	}{
		{"ip_addr/ipoib-parent-down-children-up.txt", []row{
			{"ib0", "", "DOWN", false, 4092, false}, {"ib1", "", "DOWN", false, 4092, false},
			{"ib0.beef", "ib0", "UP", true, 4092, true}, {"ib0.dddd", "ib0", "UP", true, 4092, true},
			{"ib1.beef", "ib1", "UP", true, 4092, true}, {"ib1.dddd", "ib1", "UP", true, 4092, true}}},
		{"ip_link/ipoib-child-mtu-above-parent.txt", []row{
			{"ib0", "", "UP", true, 2044, false}, {"ib1", "", "UP", true, 2044, false},
			{"ib0.dddd", "ib0", "UP", true, 2044, false}, {"ib1.dddd", "ib1", "UP", true, 4092, false}}},
	} {
		got, err := parse.IPAddr(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		var rows []row
		for _, n := range got {
			if n.Kind == "ipoib" {
				rows = append(rows, row{n.Name, n.Parent, n.OperState, *n.AdminUp, *n.MTU, slices.Contains(n.Flags, "M-DOWN")})
			}
		}
		if diff := cmp.Diff(tc.want, rows); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
	got, _ := parse.IPAddr(fixtures.Read(t, "ip_addr/ipoib-parent-down-children-up.txt"))
	if diff := cmp.Diff(ev(17, "6: ib0.beef@ib0: <BROADCAST,MULTICAST,UP,LOWER_UP,M-DOWN> mtu 4092 qdisc mq state UP group default qlen 1024"), got[5].Evidence["parent"]); diff != "" {
		t.Errorf("parent evidence (-want +got):\n%s", diff)
	}
}

func TestIPAddrVLANs(t *testing.T) {
	got, err := parse.IPAddr(fixtures.Read(t, "ip_addr/cx4lx-96-vlans.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 102 {
		t.Fatalf("%d interfaces, want 102", len(got))
	}
	want := facts.Netdev{Name: "enp1s0f0.1001", Parent: "enp1s0f0", Kind: "ethernet", MTU: ip(9216), OperState: "UP", AdminUp: bp(true), Carrier: bp(true),
		Flags: []string{"BROADCAST", "MULTICAST", "UP", "LOWER_UP"}, LinkAddress: "02:00:01:00:00:01",
		IPv6: []facts.IPv6Address{{Address: "fe80::1ff:fe00:1/64", Scope: "link"}}}
	if diff := cmp.Diff(want, got[6], noEvidence); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	wantEv := facts.EvidenceMap{
		"name": ev(27, "7: enp1s0f0.1001@enp1s0f0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9216 qdisc noqueue state UP group default qlen 1000"),
	}
	if diff := cmp.Diff(wantEv["name"], got[6].Evidence["name"]); diff != "" {
		t.Errorf("evidence (-want +got):\n%s", diff)
	}
}

func TestIPLink(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    []facts.Netdev
	}{
		{"ip_link/roce-mtu1500.txt", []facts.Netdev{
			{Name: "enp1s0f0np0", Kind: "ethernet", MTU: ip(1500), OperState: "UP", AdminUp: bp(true), Carrier: bp(true),
				Flags: []string{"BROADCAST", "MULTICAST", "UP", "LOWER_UP"}, LinkAddress: "30:c5:99:3e:6a:13"},
			{Name: "enp1s0f1np1", Kind: "ethernet", MTU: ip(1500), OperState: "UP", AdminUp: bp(true), Carrier: bp(true),
				Flags: []string{"BROADCAST", "MULTICAST", "UP", "LOWER_UP"}, LinkAddress: "30:c5:99:3e:6a:14"}}},
		{"ip_link/ib-vf-zero-guids-excerpt.txt", []facts.Netdev{{VFs: []facts.NetdevVF{{Index: 5,
			LinkAddress: "00:00:0c:79:fe:80:00:00:00:00:00:00:a0:88:c2:03:00:d6:49:a2", NodeGUID: "00:00:00:00:00:00:00:00",
			PortGUID: "00:00:00:00:00:00:00:00", LinkState: "enable", SpoofCheck: bp(false), Trust: bp(false)}}}}},
		// `ip -d link`: the ipoib detail line gives the P_Key and mode, the header the parent.
		{"ip_link/ipoib-pkey-detail.txt", []facts.Netdev{
			{Name: "mlx5_ib0.8001", Parent: "mlx5_ib0", PKey: "0x8001", IPoIBMode: "datagram", Kind: "ipoib", MTU: ip(4092), OperState: "DOWN",
				AdminUp: bp(false), Flags: []string{"BROADCAST", "MULTICAST"},
				LinkAddress: "00:00:2e:4e:fe:80:00:00:00:00:00:00:24:8a:07:03:00:a3:19:64"},
			{Name: "mlx5_ib0.8002", Parent: "mlx5_ib0", PKey: "0x8002", IPoIBMode: "datagram", Kind: "ipoib", MTU: ip(2044), OperState: "UP",
				AdminUp: bp(true), Carrier: bp(true), Flags: []string{"BROADCAST", "MULTICAST", "UP", "LOWER_UP"},
				LinkAddress: "00:00:1f:e6:fe:80:00:00:00:00:00:00:24:8a:07:03:00:a3:19:64"},
			{Name: "mlx5_ib0", PKey: "0xffff", IPoIBMode: "datagram", Kind: "ipoib", MTU: ip(2044), OperState: "UP",
				AdminUp: bp(true), Carrier: bp(true), Flags: []string{"BROADCAST", "MULTICAST", "UP", "LOWER_UP"},
				LinkAddress: "00:00:1f:e4:fe:80:00:00:00:00:00:00:24:8a:07:03:00:a3:19:64"}}},
	} {
		got, err := parse.IPLink(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got, noEvidence); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func TestIfconfig(t *testing.T) {
	got, err := parse.Ifconfig(fixtures.Read(t, "ifconfig/cx3-eth-down.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := []facts.Netdev{
		{Name: "ens5p1", Kind: "ethernet", MTU: ip(1500), AdminUp: bp(false), Flags: []string{"BROADCAST", "MULTICAST"}, LinkAddress: "00:02:c9:3e:ca:b0"},
		{Name: "ens5", Kind: "ethernet", MTU: ip(1500), AdminUp: bp(false), Flags: []string{"BROADCAST", "MULTICAST"}, LinkAddress: "00:02:c9:3e:ca:b1"},
	}
	if diff := cmp.Diff(want, got, noEvidence); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func BenchmarkIPAddr(b *testing.B) {
	data := fixtures.Read(b, "ip_addr/cx4lx-96-vlans.txt")
	for b.Loop() {
		if _, err := parse.IPAddr(data); err != nil {
			b.Fatal(err)
		}
	}
}
