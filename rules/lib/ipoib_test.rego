package rdmadoctor.lib.ipoib_test

import data.rdmadoctor.lib.ipoib

test_ipoib_by_kind_or_name if {
	ipoib.netdev({"name": "ibp26s0", "kind": "ipoib"})
	ipoib.netdev({"name": "ib0"})
	not ipoib.netdev({"name": "ib0", "kind": "ethernet"})
	not ipoib.netdev({"name": "enp1s0"})
}

# ib_name says what regex ^ib[a-z0-9] says: "ib" then a lowercase letter or digit.
test_ib_name if {
	ipoib.ib_name("ib0")
	ipoib.ib_name("ibp1s0")
	ipoib.ib_name("ib0.8001")
	ipoib.ib_name("ibz")
	ipoib.ib_name("ib9")
	not ipoib.ib_name("ib")
	not ipoib.ib_name("ibA")
	not ipoib.ib_name("ib-x")
	not ipoib.ib_name("ib_0")
	not ipoib.ib_name("Ib0")
	not ipoib.ib_name("xib0")
	not ipoib.ib_name("")
	not ipoib.ib_name("ibé")
}

test_ib_name_agrees_with_the_regex if {
	names := ["ib", "ib0", "ibA", "ibp1s0", "ib.", "ib ", "iba", "ibz", "ib{", "ib`", "ib/", "ib:", "IB0", "eib0", "i", "enp1s0"]
	{n | some n in names; ipoib.ib_name(n)} == {n | some n in names; regex.match(`^ib[a-z0-9]`, n)}
}

# netdevs and children keep input.netdevs' order and say what netdev and child say.
test_netdevs_and_children if {
	nds := [
		{"name": "enp1s0", "kind": "ethernet"},
		{"name": "ib0"},
		{"name": "ibA"},
		{"name": "ib"},
		{"name": "ib0", "kind": "ethernet"},
		{"name": "ibp26s0", "kind": "ipoib"},
		{"name": "ib0.8001", "parent": "ib0"},
		{"name": "enp1s0.5", "parent": "enp1s0", "kind": "ethernet"},
	]
	names := [nd.name | some nd in ipoib.netdevs] with input as {"netdevs": nds}
	names == ["ib0", "ibp26s0", "ib0.8001"]
	kids := [nd.name | some nd in ipoib.children] with input as {"netdevs": nds}
	kids == ["ib0.8001"]
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
