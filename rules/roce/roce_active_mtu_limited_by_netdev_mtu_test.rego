package rdmadoctor.rules.roce_active_mtu_limited_by_netdev_mtu_test

import data.rdmadoctor.rules.roce_active_mtu_limited_by_netdev_mtu as rule

p := {"number": 1, "state": "Active", "link_layer": "Ethernet", "active_mtu": 1024, "max_mtu": 4096}

test_fires_with_netdev_by_predictable_name if {
	fs := rule.findings with input as {"devices": [{"name": "rocep1s0f0", "ports": [p]}], "netdevs": [{"name": "enp1s0f0np0", "mtu": 1500}]}
	count(fs) == 1
	some f in fs
	contains(f.message, "because enp1s0f0np0 has MTU 1500")
	f.vars.netdev == "enp1s0f0np0"
}

test_fires_from_netdev_mtu_alone if {
	q := object.remove(p, ["active_mtu", "max_mtu"])
	fs := rule.findings with input as {"devices": [{"name": "mlx5_0", "ports": [object.union(q, {"netdev": "eth2"})]}], "netdevs": [{"name": "eth2", "mtu": 1500}]}
	some f in fs
	f.confidence == "medium"
}

test_no_finding_at_4096 if {
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [object.union(p, {"active_mtu": 4096})]}], "netdevs": []}
}

test_no_finding_on_infiniband if {
	# IB active_mtu comes from the SM/partition, not the netdev (ipoib-mode-mtu-suboptimal)
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [object.union(p, {"link_layer": "InfiniBand", "active_mtu": 2048})]}], "netdevs": []}
}

test_no_finding_when_netdev_mtu_unknown if {
	q := object.union(object.remove(p, ["active_mtu", "max_mtu"]), {"netdev": "eth2"})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [q]}], "netdevs": [{"name": "eth2", "mtu": null}]}
}
