package rdmadoctor.rules.nic_numa_node_unknown_test

import data.rdmadoctor.rules.nic_numa_node_unknown as rule

test_fires_on_multi_node_host if {
	devs := [
		{"name": "mlx5_0", "numa_node": -1, "evidence": {"numa_node": {"path": "sys/class/infiniband/mlx5_0/device/numa_node", "text": "-1"}}},
		{"name": "mlx5_1", "numa_node": 1},
	]
	fs := rule.findings with input as {"devices": devs}
	count(fs) == 1
	some f in fs
	f.subject.device == "mlx5_0"
	count(f.evidence) == 1
}

test_fires_for_netdev_of_mlx_driver if {
	inp := {"netdevs": [{"name": "eth2", "numa_node": -1, "driver": "mlx5_core"}], "pci": [{"address": "0000:c1:00.0", "numa_node": 1}]}
	count(rule.findings) == 1 with input as inp
}

test_no_finding_on_single_node_host if {
	devs := [{"name": "mlx5_0", "numa_node": -1}, {"name": "mlx5_1", "numa_node": 0}]
	count(rule.findings) == 0 with input as {"devices": devs}
}

test_no_finding_when_node_known if {
	devs := [{"name": "mlx5_0", "numa_node": 0}, {"name": "mlx5_1", "numa_node": 1}]
	count(rule.findings) == 0 with input as {"devices": devs}
}
