package rdmadoctor.rules.ipoib_module_missing_test

import data.rdmadoctor.rules.ipoib_module_missing as rule

ib_active := [{"name": "mlx5_0", "ports": [{"number": 1, "state": "Active", "link_layer": "InfiniBand"}]}]

full_lsmod := [{"name": "mlx5_ib"}, {"name": "ib_core", "used_by": ["mlx5_ib", "ib_uverbs"]}]

test_fires_without_ib_ipoib if {
	fs := rule.findings with input as {"devices": ib_active, "host": {"modules": full_lsmod}, "netdevs": []}
	count(fs) == 1
	some f in fs
	startswith(f.message, "mlx5_0 port 1 is Active")
}

test_no_finding_when_ib_ipoib_is_a_user if {
	mods := [{"name": "ib_core", "used_by": ["ib_ipoib", "mlx5_ib"]}]
	count(rule.findings) == 0 with input as {"devices": ib_active, "host": {"modules": mods}}
}

test_no_finding_on_roce if {
	roce := [{"name": "mlx5_0", "ports": [{"number": 1, "state": "Active", "link_layer": "Ethernet"}]}]
	count(rule.findings) == 0 with input as {"devices": roce, "host": {"modules": full_lsmod}}
}

test_no_finding_with_ipoib_netdev if {
	count(rule.findings) == 0 with input as {"devices": ib_active, "host": {"modules": full_lsmod}, "netdevs": [{"name": "ib0", "kind": "ipoib"}]}
}
