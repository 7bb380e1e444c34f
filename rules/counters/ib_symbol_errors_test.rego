package rdmadoctor.rules.ib_symbol_errors_test

import data.rdmadoctor.rules.ib_symbol_errors as rule

active := {"number": 1, "state": "Active", "physical_state": "LinkUp", "link_layer": "InfiniBand"}

test_fires_on_delta if {
	p := object.union(active, {"counters": {"symbol_error": 1842}, "counter_deltas": {"symbol_error": 3}})
	fs := rule.findings with input as {"sample": {"interval_seconds": 60}, "devices": [{"name": "mlx5_0", "ports": [p]}]}
	count(fs) == 1
	some f in fs
	f.confidence == "medium"
	contains(f.message, "+3 in 60s")
}

test_fires_low_on_absolute if {
	p := object.union(active, {"counters": {"symbol_error": 65535}})
	fs := rule.findings with input as {"sample": null, "devices": [{"name": "mlx5_0", "ports": [p]}]}
	some f in fs
	f.confidence == "low"
	contains(f.message, "saturated")
}

test_no_finding_when_flat if {
	p := object.union(active, {"counters": {"symbol_error": 1842}, "counter_deltas": {"symbol_error": 0}})
	count(rule.findings) == 0 with input as {"sample": {"interval_seconds": 60}, "devices": [{"name": "mlx5_0", "ports": [p]}]}
}

test_no_finding_on_roce if {
	p := object.union(active, {"link_layer": "Ethernet", "counters": {"symbol_error": 500}})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [p]}]}
}
