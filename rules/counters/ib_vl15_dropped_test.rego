package rdmadoctor.rules.ib_vl15_dropped_test

import data.rdmadoctor.rules.ib_vl15_dropped as rule

active := {"number": 1, "state": "Active", "physical_state": "LinkUp", "link_layer": "InfiniBand"}

test_fires_above_threshold if {
	p := object.union(active, {"counters": {"VL15_dropped": 412}})
	count(rule.findings) == 1 with input as {"sample": null, "devices": [{"name": "mlx5_0", "ports": [p]}]}
}

test_no_finding_below_threshold if {
	p := object.union(active, {"counters": {"VL15_dropped": 12}})
	count(rule.findings) == 0 with input as {"sample": null, "devices": [{"name": "mlx5_0", "ports": [p]}]}
}
