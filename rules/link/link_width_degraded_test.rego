package rdmadoctor.rules.link_width_degraded_test

import data.rdmadoctor.rules.link_width_degraded as rule

one_x := {"number": 1, "state": "Active", "physical_state": "LinkUp", "rate_gbps": 25, "width_lanes": 1, "lane_speed": "EDR", "link_layer": "InfiniBand"}

test_fires_1x_on_connectx5 if {
	fs := rule.findings with input as {"devices": [{"name": "mlx5_0", "ca_type": "MT4119", "ports": [one_x]}]}
	count(fs) == 1
	some f in fs
	not f.confidence
}

test_fires_2x_on_edr_adapter_medium if {
	p := object.union(one_x, {"width_lanes": 2, "rate_gbps": 50})
	fs := rule.findings with input as {"devices": [{"name": "mlx5_0", "ca_type": "MT4115", "ports": [p]}]}
	some f in fs
	f.confidence == "medium"
}

test_no_finding_for_hdr100 if {
	p := object.union(one_x, {"width_lanes": 2, "rate_gbps": 100, "lane_speed": "HDR"})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ca_type": "MT4123", "ports": [p]}]}
}

test_no_finding_for_roce_1x if {
	# corpus 107: 10GbE through a QSA adapter reads "10 Gb/sec (1X QDR)" on an Ethernet port
	p := object.union(one_x, {"link_layer": "Ethernet", "rate_gbps": 10, "lane_speed": "QDR"})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx4_0", "ports": [p]}]}
}

test_no_finding_when_down if {
	p := object.union(one_x, {"state": "Down", "physical_state": "Polling"})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ca_type": "MT4119", "ports": [p]}]}
}

fabric_link(w, enabled) := {"ports": [
	{
		"node_guid": "0xfc6a1c030091cf40", "node_description": "Quantum-2 Mellanox Technologies", "node_type": "Switch", "port": 9, "label": "1/5/1",
		"state": "Active", "width_lanes": w, "enabled_widths": enabled,
		"peer_guid": "0xc470bd0300100612", "peer_label": "B143D0F0/0/0/1", "peer_description": "node25 mlx5_9",
		"evidence": {"width_lanes": {"source": "ibdiagnet2_net_dump", "path": "ibdiagnet2.net_dump", "line": 300, "text": "  1/5/1 : 9 : ACT : LINK UP : 5 : 2x : 100 ..."}},
	},
	{"node_guid": "0xc470bd0300100612", "node_type": "CA", "port": 1, "state": "Active", "width_lanes": w, "enabled_widths": [1, 2, 4]},
]}

test_fires_on_a_fabric_link_narrower_than_both_ends_enable if {
	fs := rule.findings with input as {"fabric": fabric_link(2, [1, 2, 4])}
	count(fs) == 2 # the switch port and the CA port
	some f in fs
	f.subject.node_guid == "0xfc6a1c030091cf40"
	contains(f.message, "is Active at 2X while both ends allow 4X")
}

# a split (2x) port of a Quantum switch has 2x alone enabled: 2X is its design
test_no_finding_on_a_split_fabric_port if {
	fs := rule.findings with input as {"fabric": fabric_link(2, [2])}
	count([f | some f in fs; f.subject.node_guid == "0xfc6a1c030091cf40"]) == 0
}
