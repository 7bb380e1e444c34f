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
