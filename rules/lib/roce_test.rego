package rdmadoctor.lib.roce_test

import data.rdmadoctor.lib.roce

test_predictable_pair if {
	roce.predictable_pair("rocep1s0f0", "enp1s0f0np0")
	roce.predictable_pair("roceP2p1s0f1", "enP2p1s0f1np1")
	roce.predictable_pair("rocep94s0f0", "enp94s0f0")
	not roce.predictable_pair("rocep1s0f0", "enp1s0f1np1")
	not roce.predictable_pair("rocep1s0f0", "enP2p1s0f0np0")
	not roce.predictable_pair("mlx5_0", "enp1s0f0np0")
}

test_netdev_by_name if {
	inp := {"devices": [], "netdevs": [{"name": "enp1s0f1np1"}, {"name": "enp1s0f0np0", "mtu": 1500}]}
	nd := roce.netdev({"name": "rocep1s0f0"}, {"number": 1}) with input as inp
	nd.mtu == 1500
}

test_iboe_mtu if {
	roce.iboe_mtu(1500) == 1024
	roce.iboe_mtu(2144) == 2048
	roce.iboe_mtu(4191) == 2048
	roce.iboe_mtu(4192) == 4096
	roce.iboe_mtu(9000) == 4096
}

test_eth_from_gid_types if {
	roce.eth({"gids": [{"index": 1, "type": "RoCE v2"}]})
	not roce.eth({"gids": [{"index": 0, "type": "IB"}]})
	not roce.eth({"link_layer": "InfiniBand", "gids": [{"index": 1, "type": "RoCE v2"}]})
}

test_vlan_children if {
	roce.vlan_children({"name": "enp1s0f0"}) == {"enp1s0f0.1001"} with input as {"netdevs": [{"name": "enp1s0f0"}, {"name": "enp1s0f0.1001"}, {"name": "enp1s0f1.1001"}]}
}

test_partial_path if {
	roce.partial_path("show_gids_TRUNCATED")
	not roce.partial_path("sos_commands/infiniband/show_gids")
}

# Each path once, "" for a GID without evidence.
test_gid_paths if {
	p := {"gids": [
		{"index": 0, "evidence": {"path": "show_gids"}},
		{"index": 1, "evidence": {"path": "show_gids"}},
		{"index": 2, "evidence": {"path": "show_gids_TRUNCATED"}},
		{"index": 3},
	]}
	roce.gid_paths(p) == {"show_gids", "show_gids_TRUNCATED", ""}
	roce.gid_paths({"gids": []}) == set()
}
