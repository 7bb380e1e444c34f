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

# fixtures/ibqueryerrors/sx6036-ceph-cluster.txt: SX6036 port 6, discards with the wait counter saturated.
test_fires_on_fabric_discards_and_names_the_wait if {
	p := {
		"node_guid": "0x0002c903006e29b0", "node_description": "MF0;switch01:SX6036/U1", "node_type": "Switch", "port": 6,
		"counters": {"port_xmit_discards": 14176, "port_xmit_wait": 4294967295},
		"evidence": {"counters.port_xmit_discards": {"source": "ibqueryerrors", "path": "ibqueryerrors", "line": 14, "text": "   GUID 0x2c903006e29b0 port 6: [LinkDownedCounter == 9] [PortRcvSwitchRelayErrors == 2285] [PortXmitDiscards == 14176] [PortXmitWait == 4294967295]"}},
	}
	some f in rule.findings with input as {"fabric": {"ports": [p]}}
	f.confidence == "low"
	contains(f.message, "port_xmit_discards 14176 since last clear, port_xmit_wait 4294967295")
}
