package rdmadoctor.rules.ib_port_xmit_discards_test

import data.rdmadoctor.rules.ib_port_xmit_discards as rule

active := {"number": 1, "state": "Active", "physical_state": "LinkUp", "link_layer": "InfiniBand"}

test_fires_on_discards if {
	p := object.union(active, {"counter_deltas": {"port_xmit_discards": 1324}})
	count(rule.findings) == 1 with input as {"sample": {"interval_seconds": 60}, "devices": [{"name": "mlx5_0", "ports": [p]}]}
}

test_no_finding_on_down_port if {
	p := object.union(active, {"state": "Down", "counters": {"port_xmit_discards": 5000}})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [p]}]}
}

test_no_finding_below_threshold if {
	p := object.union(active, {"counter_deltas": {"port_xmit_discards": 12}})
	count(rule.findings) == 0 with input as {"sample": {"interval_seconds": 60}, "devices": [{"name": "mlx5_0", "ports": [p]}]}
}
