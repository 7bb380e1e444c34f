package rdmadoctor.rules.roce_duplicate_gid_address_test

import data.rdmadoctor.rules.roce_duplicate_gid_address as rule

ll := "fe80:0000:0000:0000:0ac0:ebff:fe79:391a"

v4 := "0000:0000:0000:0000:0000:ffff:c000:02af"

# corpus 049 (openucx/ucx#9484): 192.0.2.175 on bond1 and on the VXLAN b3.vxlan.30100.
gids049 := [
	{"index": 0, "gid": ll, "type": "RoCE v1", "netdev": "bond1"},
	{"index": 1, "gid": ll, "type": "RoCE v2", "netdev": "bond1"},
	{"index": 2, "gid": v4, "type": "RoCE v1", "ipv4": "192.0.2.175", "netdev": "b3.vxlan.30100"},
	{"index": 3, "gid": v4, "type": "RoCE v2", "ipv4": "192.0.2.175", "netdev": "b3.vxlan.30100", "evidence": {"line": 6}},
	{"index": 4, "gid": v4, "type": "RoCE v1", "ipv4": "192.0.2.175", "netdev": "bond1"},
	{"index": 5, "gid": v4, "type": "RoCE v2", "ipv4": "192.0.2.175", "netdev": "bond1", "evidence": {"line": 8}},
]

test_fires_same_ipv4_on_bond_and_vxlan if {
	fs := rule.findings with input as {"devices": [{"name": "mlx5_bond_0", "ports": [{"number": 1, "gids": gids049}]}]}
	count(fs) == 1
	some f in fs
	f.message == "mlx5_bond_0 port 1: 192.0.2.175 is on RoCE v2 GIDs 3 (b3.vxlan.30100) and 5 (bond1): GID selection by address is ambiguous and RDMA traffic may take b3.vxlan.30100's L2 path"
	f.vars.other_netdev == "b3.vxlan.30100"
	count(f.evidence) == 2
}

test_no_finding_for_shared_link_local if {
	# a bond's VLAN shares its MAC, so both carry the same link-local GIDs: by design
	gids := [
		{"index": 1, "gid": ll, "type": "RoCE v2", "netdev": "bond1"},
		{"index": 3, "gid": ll, "type": "RoCE v2", "netdev": "bond1.100"},
		{"index": 5, "gid": v4, "type": "RoCE v2", "ipv4": "192.0.2.175", "netdev": "bond1"},
	]
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_bond_0", "ports": [{"number": 1, "gids": gids}]}]}
}

test_no_finding_for_v1_and_v2_of_one_netdev if {
	gids := [g | some g in gids049; g.netdev == "bond1"]
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_bond_0", "ports": [{"number": 1, "gids": gids}]}]}
}

# Values are compared in lower case, and only repeated routable ones are grouped.
test_repeated_values if {
	gids := [
		{"index": 1, "gid": ll, "type": "RoCE v2", "netdev": "bond1"},
		{"index": 3, "gid": ll, "type": "RoCE v2", "netdev": "bond1.100"},
		{"index": 5, "gid": v4, "type": "RoCE v2", "netdev": "bond1"},
		{"index": 6, "gid": upper(v4), "type": "RoCE v2", "netdev": "b3.vxlan.30100"},
		{"index": 7, "gid": "2001:0db8:0000:0000:0000:0000:0000:0001", "type": "RoCE v2", "netdev": "bond1"},
		{"index": 8, "gid": "2001:0db8:0000:0000:0000:0000:0000:0001", "type": "RoCE v1", "netdev": "bond1.100"},
		{"index": 9, "gid": "0000:0000:0000:0000:0000:0000:0000:0000", "type": "RoCE v2", "netdev": "bond1"},
		{"index": 10, "gid": "0000:0000:0000:0000:0000:0000:0000:0000", "type": "RoCE v2", "netdev": "bond1.100"},
	]
	rule.repeated({"gids": gids}) == {v4}
	fs := rule.findings with input as {"devices": [{"name": "mlx5_bond_0", "ports": [{"number": 1, "gids": gids}]}]}
	count(fs) == 1
	some f in fs
	startswith(f.message, "mlx5_bond_0 port 1: 0000:0000:0000:0000:0000:ffff:c000:02af is on RoCE v2 GIDs 5 (bond1) and 6 (b3.vxlan.30100)")
}
