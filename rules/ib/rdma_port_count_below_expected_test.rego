package rdmadoctor.rules.rdma_port_count_below_expected_test

import data.rdmadoctor.rules.rdma_port_count_below_expected as rule

ndr(name, state, r) := {"name": name, "ca_type": "MT4129", "ports": [{"number": 1, "state": state, "rate_gbps": r, "link_layer": "InfiniBand"}]}

node := [ndr("mlx5_0", "Active", 400), ndr("mlx5_1", "Active", 400), ndr("mlx5_2", "Down", 10), ndr("mlx5_3", "Active", 200)]

test_fires_when_rails_missing if {
	fs := rule.findings with input as {"devices": node, "profile": {"expected_active_ports": 4, "expected_rate_gbps": 400}}
	count(fs) == 1
	some f in fs
	f.message == "2 of the expected 4 RDMA ports are Active at >= 400 Gb/s; not counted: mlx5_2/1 Down, mlx5_3/1 Active 200 Gb/s"
}

test_fires_for_rate_only_profile if {
	fs := rule.findings with input as {"devices": node, "profile": {"expected_rate_gbps": 400}}
	some f in fs
	contains(f.message, "mlx5_3/1 Active 200 Gb/s")
}

test_no_finding_without_profile if {
	count(rule.findings) == 0 with input as {"devices": node, "profile": null}
}

test_no_finding_when_count_met if {
	count(rule.findings) == 0 with input as {"devices": node, "profile": {"expected_active_ports": 3}}
}

test_no_finding_for_ethernet_ports_on_ib_profile if {
	devs := array.concat([ndr("mlx5_0", "Active", 400)], [{"name": "mlx5_9", "ports": [{"number": 1, "state": "Down", "link_layer": "Ethernet"}]}])
	count(rule.findings) == 0 with input as {"devices": devs, "profile": {"fabric": "ib", "expected_active_ports": 1}}
}
