package rdmadoctor.rules.ib_link_integrity_or_buffer_overrun_test

import data.rdmadoctor.rules.ib_link_integrity_or_buffer_overrun as rule

active := {"number": 1, "state": "Active", "physical_state": "LinkUp", "link_layer": "InfiniBand"}

test_fires_on_delta if {
	p := object.union(active, {"counters": {"local_link_integrity_errors": 3}, "counter_deltas": {"local_link_integrity_errors": 1}})
	fs := rule.findings with input as {"sample": {"interval_seconds": 60}, "devices": [{"name": "mlx5_0", "ports": [p]}]}
	count(fs) == 1
	some f in fs
	not f.severity
}

test_fires_warning_on_saturated if {
	p := object.union(active, {"counters": {"excessive_buffer_overrun_errors": 15}})
	fs := rule.findings with input as {"sample": null, "devices": [{"name": "mlx5_0", "ports": [p]}]}
	some f in fs
	f.severity == "warning"
	contains(f.message, "saturated")
}

test_no_finding_below_threshold if {
	p := object.union(active, {"counters": {"local_link_integrity_errors": 3}})
	count(rule.findings) == 0 with input as {"sample": null, "devices": [{"name": "mlx5_0", "ports": [p]}]}
}
