package rdmadoctor.rules.ib_default_subnet_prefix_multi_fabric_test

import data.rdmadoctor.rules.ib_default_subnet_prefix_multi_fabric as rule

ibport(n, smlid) := {"number": n, "state": "Active", "link_layer": "InfiniBand", "sm_lid": smlid, "subnet_prefix": "fe80:0000:0000:0000"}

test_fires_for_two_fabrics_with_fe80 if {
	devs := [{"name": "mlx5_0", "ports": [ibport(1, 1)]}, {"name": "mlx5_1", "ports": [ibport(1, 7)]}]
	fs := rule.findings with input as {"devices": devs}
	count(fs) == 1
	some f in fs
	contains(f.message, "mlx5_0/1 (SM lid 1), mlx5_1/1 (SM lid 7)")
}

test_fires_with_prefix_from_gid0 if {
	p := {"number": 2, "state": "Active", "link_layer": "InfiniBand", "sm_lid": 3, "gids": [{"index": 0, "gid": "fe80:0000:0000:0000:0002:c903:0010:1a2b"}]}
	devs := [{"name": "mlx4_0", "ports": [ibport(1, 1), p]}]
	count(rule.findings) == 1 with input as {"devices": devs}
}

test_no_finding_for_two_rails_of_one_fabric if {
	devs := [{"name": "mlx5_0", "ports": [ibport(1, 1)]}, {"name": "mlx5_1", "ports": [ibport(1, 1)]}]
	count(rule.findings) == 0 with input as {"devices": devs}
}

test_no_finding_when_prefix_changed if {
	q := object.union(ibport(1, 7), {"subnet_prefix": "fe80:0000:0000:0001"})
	devs := [{"name": "mlx5_0", "ports": [ibport(1, 1)]}, {"name": "mlx5_1", "ports": [q]}]
	count(rule.findings) == 0 with input as {"devices": devs}
}
