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

# corpus 301: an ibdiagnet2 CA port with a saturated symbol error counter, linked to a
# Quantum-2 leaf port that names it as its neighbor.
fabric_ca(sym, delta) := {"ports": [
	{
		"node_guid": "0xc470bd0300100612", "node_description": "node25 mlx5_9", "node_type": "CA", "port_guid": "0xc470bd0300100612", "port": 1,
		"counters": {"symbol_error": sym}, "counter_deltas": {"symbol_error": delta},
		"evidence": {
			"counters.symbol_error": {"source": "ibdiagnet2_pm", "path": "ibdiagnet2.pm", "line": 18445, "text": "symbol_error_counter=0x0000ffff"},
			"counter_deltas.symbol_error": {"source": "ibdiagnet2_db_csv", "path": "ibdiagnet2.db_csv", "line": 4600, "text": "0xc470bd0300100612,..."},
		},
	},
	{
		"node_guid": "0xfc6a1c030091cf40", "node_description": "Quantum-2 Mellanox Technologies", "node_type": "Switch", "port": 9, "label": "1/5/1",
		"peer_guid": "0xc470bd0300100612", "peer_label": "B143D0F0/0/0/1", "peer_description": "node25 mlx5_9",
		"evidence": {"peer_guid": {"source": "ibdiagnet2_net_dump", "path": "ibdiagnet2.net_dump", "line": 300, "text": "  1/5/1 : 9 : ACT ..."}},
	},
]}

test_fires_on_a_fabric_port_whose_count_rose if {
	fs := rule.findings with input as {"fabric": fabric_ca(65535, 12)}
	count(fs) == 1
	some f in fs
	f.subject == {"node_guid": "0xc470bd0300100612", "node_description": "node25 mlx5_9", "port": 1}
	f.confidence == "medium"
	not f.severity
	contains(f.message, `<-> 0xfc6a1c030091cf40 "Quantum-2 Mellanox Technologies" port 9 (1/5/1)`)
	count(f.evidence) == 3
}

test_fires_as_history_when_the_count_did_not_rise if {
	some f in rule.findings with input as {"fabric": fabric_ca(65535, 0)}
	f.severity == "info"
	contains(f.message, ">= 65535 (counter saturated) since last clear, not rising")
}

# a fabric port that is one of this host's devices (the same node GUID) is that device's port
test_fabric_port_of_a_local_device_names_the_device if {
	some f in rule.findings with input as {"fabric": fabric_ca(65535, 12), "devices": [{"name": "mlx5_9", "node_guid": "0xc470bd0300100612", "ports": [{"number": 1}]}]}
	f.subject == {"device": "mlx5_9", "port": 1}
}

test_no_finding_on_a_fabric_port_below_threshold if {
	count(rule.findings) == 0 with input as {"fabric": fabric_ca(10, 0)}
}
