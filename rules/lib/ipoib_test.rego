package rdmadoctor.lib.ipoib_test

import data.rdmadoctor.lib.ipoib

test_ipoib_by_kind_or_name if {
	ipoib.netdev({"name": "ibp26s0", "kind": "ipoib"})
	ipoib.netdev({"name": "ib0"})
	not ipoib.netdev({"name": "ib0", "kind": "ethernet"})
	not ipoib.netdev({"name": "enp1s0"})
}

test_port_of_netdev if {
	dp := ipoib.port({"name": "ib0"}) with input as {"devices": [{"name": "mlx5_0", "ports": [{"number": 1, "netdev": "ib0"}]}]}
	dp[0].name == "mlx5_0"
}

# fixtures/ip_link/ipoib-child-mtu-above-parent.txt: ib1.dddd@ib1.
test_child_and_parent if {
	nds := [{"name": "ib1", "kind": "ipoib", "mtu": 2044}, {"name": "ib1.dddd", "parent": "ib1", "kind": "ipoib", "mtu": 4092}]
	ipoib.child(nds[1])
	not ipoib.child(nds[0])
	par := ipoib.parent_of(nds[1]) with input as {"netdevs": nds}
	par.mtu == 2044
}

# A VLAN of an Ethernet port is no IPoIB child.
test_vlan_is_no_child if {
	not ipoib.child({"name": "enp1s0f0.1001", "parent": "enp1s0f0", "kind": "ethernet"})
}
