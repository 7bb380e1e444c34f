package rdmadoctor.rules.ib_port_rcv_errors_test

import data.rdmadoctor.rules.ib_port_rcv_errors as rule

active := {"number": 1, "state": "Active", "physical_state": "LinkUp", "link_layer": "InfiniBand"}

test_fires_on_rcv_errors_delta if {
	p := object.union(active, {"counter_deltas": {"port_rcv_errors": 241}})
	count(rule.findings) == 1 with input as {"sample": {"interval_seconds": 30}, "devices": [{"name": "mlx5_0", "ports": [p]}]}
}

test_fires_on_perfquery_counters if {
	fs := rule.findings with input as {
		"devices": [{"name": "mlx5_0", "ports": [active]}],
		"fabric": {"perf_counters": [{"device": "mlx5_0", "local": true, "port": 1, "counters": {"port_rcv_remote_physical_errors": 500}}]},
	}
	some f in fs
	f.confidence == "low"
}

# perfquery -C mlx5_0 -P 1 12 1 read LID 12's port 1 through mlx5_0: not mlx5_0's own counters.
test_no_finding_from_a_remote_ports_counters if {
	count(rule.findings) == 0 with input as {
		"devices": [{"name": "mlx5_0", "ports": [active]}],
		"fabric": {"perf_counters": [{"device": "mlx5_0", "local": false, "lid": 12, "port": 1, "counters": {"port_rcv_remote_physical_errors": 500}}]},
	}
	count(rule.findings) == 0 with input as {
		"devices": [{"name": "mlx5_0", "ports": [active]}],
		"fabric": {"perf_counters": [{"device": "mlx5_0", "local": null, "lid": 12, "port": 1, "counters": {"port_rcv_remote_physical_errors": 500}}]},
	}
}

test_no_finding_below_threshold if {
	p := object.union(active, {"counters": {"port_rcv_errors": 3, "port_rcv_remote_physical_errors": 50}})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [p]}]}
}
