package rdmadoctor.rules.ib_link_flapping_test

import data.rdmadoctor.rules.ib_link_flapping as rule

active := {"number": 1, "state": "Active", "physical_state": "LinkUp", "link_layer": "InfiniBand"}

test_fires_on_link_downed_delta if {
	p := object.union(active, {"counter_deltas": {"link_downed": 1}})
	count(rule.findings) == 1 with input as {"sample": {"interval_seconds": 60}, "devices": [{"name": "mlx5_0", "ports": [p]}]}
}

test_fires_on_saturated_absolute if {
	# corpus 005: link_downed 255 (8-bit counter stuck at its maximum)
	p := object.union(active, {"counters": {"link_downed": 255}})
	fs := rule.findings with input as {"devices": [{"name": "mlx5_0", "ports": [p]}]}
	some f in fs
	f.confidence == "low"
}

test_fires_when_caught_retraining if {
	p := {"number": 1, "state": "Down", "physical_state": "LinkErrorRecovery", "link_layer": "InfiniBand"}
	count(rule.findings) == 1 with input as {"devices": [{"name": "mlx5_0", "ports": [p]}]}
}

test_no_finding_for_bring_up_noise if {
	# link_downed 1 after boot is link bring-up, not flapping
	p := object.union(active, {"counters": {"link_downed": 1, "link_error_recovery": 0}})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [p]}]}
}
