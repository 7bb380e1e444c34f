package rdmadoctor.rules.roce_gid_table_sparse_test

import data.rdmadoctor.rules.roce_gid_table_sparse as rule

# corpus 050 (k8snetworkplumbingwg/multus-cni#1100), show_gids in pod 1: macvlan net1 GIDs at 4 and 5.
pod1 := [
	{"index": 4, "gid": "0000:0000:0000:0000:0000:ffff:ac14:0101", "type": "RoCE v1", "ipv4": "172.20.1.1", "netdev": "net1", "evidence": {"source": "show_gids", "path": "show_gids_pod1", "line": 3}},
	{"index": 5, "gid": "0000:0000:0000:0000:0000:ffff:ac14:0101", "type": "RoCE v2", "ipv4": "172.20.1.1", "netdev": "net1", "evidence": {"source": "show_gids", "path": "show_gids_pod1", "line": 4}},
]

test_fires_on_macvlan_pod if {
	fs := rule.findings with input as {"devices": [{"name": "mlx5_4", "ports": [{"number": 1, "gids": pod1}]}]}
	count(fs) == 1
	some f in fs
	f.message == "mlx5_4 port 1: the GID table starts at index 4 (indices 0-3 are empty in this namespace) and its RoCE v2 IPv4 GID is index 5: the GID index differs per pod, do not hard-code it"
	f.vars.v2_ipv4_index == 5
}

test_fires_with_zero_entries_from_sysfs if {
	gids := array.concat([{"index": 0, "gid": "0000:0000:0000:0000:0000:0000:0000:0000", "type": "RoCE v2"}], pod1)
	count(rule.findings) == 1 with input as {"devices": [{"name": "mlx5_4", "ports": [{"number": 1, "gids": gids}]}]}
}

test_no_finding_on_host_table if {
	gids := [
		{"index": 0, "gid": "fe80:0000:0000:0000:0ac0:ebff:fe79:391a", "type": "RoCE v1", "netdev": "bond1"},
		{"index": 1, "gid": "fe80:0000:0000:0000:0ac0:ebff:fe79:391a", "type": "RoCE v2", "netdev": "bond1"},
	]
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_bond_0", "ports": [{"number": 1, "gids": gids}]}]}
}

test_no_finding_on_excerpt if {
	gids := [object.union(g, {"evidence": {"path": "show_gids_EXCERPT"}}) | some g in pod1]
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_4", "ports": [{"number": 1, "gids": gids}]}]}
}

test_no_finding_on_infiniband if {
	gids := [object.union(g, {"type": "IB/RoCE v1"}) | some g in pod1]
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_4", "ports": [{"number": 1, "link_layer": "InfiniBand", "gids": gids}]}]}
}

# One GID of the port from an excerpt is enough: the port's table may be cut short.
test_no_finding_when_a_later_gid_is_from_an_excerpt if {
	gids := [pod1[0], object.union(pod1[1], {"evidence": {"path": "show_gids_EXCERPT", "line": 4}})]
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_4", "ports": [{"number": 1, "gids": gids}]}]}
}
