package rdmadoctor.rules.fleet_port_rate_below_peers_test

import data.rdmadoctor.rules.fleet_port_rate_below_peers as rule

# mlx5_0 port 1 of corpus case 005 (sysfs rate "400 Gb/sec (4X NDR)" of a ConnectX-7).
port(rate, width) := {
	"number": 1, "state": "Active", "physical_state": "LinkUp", "rate_gbps": rate, "width_lanes": width,
	"lane_speed": "NDR", "link_layer": "InfiniBand",
	"evidence": {"rate_gbps": {"source": "sysfs_infiniband", "path": "sys/class/infiniband/mlx5_0/ports/1/rate", "line": 0, "text": sprintf("%d Gb/sec (%dX NDR)", [rate, width])}},
}

node(host, rate, width) := {"host": host, "devices": [{"name": "mlx5_0", "ca_type": "MT4129", "ports": [port(rate, width)]}]}

test_fires_on_a_narrower_link if {
	fs := rule.findings with input as {"nodes": [node("node01", 400, 4), node("node02", 200, 2), node("node03", 400, 4)]}
	count(fs) == 1
	some f in fs
	f.nodes == ["node02"]
	f.subject == {"device": "mlx5_0", "port": 1}
	f.message == "node02 mlx5_0 port 1 runs 200 Gb/s (2X NDR) while 2 nodes' MT4129 ports run 400 Gb/s (4X NDR): fewer lanes"
	[e.host | some e in f.evidence] == ["node02", "node01"]
}

test_no_finding_above_the_peers if {
	count(rule.findings) == 0 with input as {"nodes": [node("node01", 200, 2), node("node02", 400, 4), node("node03", 200, 2)]}
}

test_no_finding_on_a_port_that_is_not_active if {
	down := {"host": "node02", "devices": [{"name": "mlx5_0", "ca_type": "MT4129", "ports": [object.union(port(10, 1), {"state": "Down"})]}]}
	count(rule.findings) == 0 with input as {"nodes": [node("node01", 400, 4), down, node("node03", 400, 4)]}
}

test_no_finding_across_models if {
	other := {"host": "node02", "devices": [{"name": "mlx5_0", "ca_type": "MT4123", "ports": [port(200, 4)]}]}
	count(rule.findings) == 0 with input as {"nodes": [node("node01", 400, 4), other, node("node03", 400, 4)]}
}

test_no_finding_when_the_profile_states_the_rate if {
	count(rule.findings) == 0 with input as {
		"nodes": [node("node01", 400, 4), node("node02", 200, 2), node("node03", 400, 4)],
		"profile": {"expected_rate_gbps": 400},
	}
}

test_fires_on_a_tie_below_the_fastest if {
	fs := rule.findings with input as {"nodes": [node("node01", 400, 4), node("node02", 200, 2)]}
	count(fs) == 1
	some f in fs
	f.nodes == ["node02"]
	f.subject == {"device": "mlx5_0", "port": 1}
	f.confidence == "low"
	f.message == "node02 mlx5_0 port 1 runs 200 Gb/s (2X NDR) while node01's MT4129 ports run 400 Gb/s (4X NDR), the fastest of its peers (no rate is on more nodes than every other: 200 Gb/s on node02, 400 Gb/s on node01): fewer lanes"
	[e.host | some e in f.evidence] == ["node02", "node01"]
	f.vars.rate == "400 Gb/s (4X NDR)"
}

test_fires_on_a_tie_only_below_the_fastest if {
	fs := rule.findings with input as {"nodes": [node("node01", 400, 4), node("node02", 200, 2), node("node03", 400, 4), node("node04", 200, 2)]}
	{f.nodes[0] | some f in fs} == {"node02", "node04"}
}

test_no_finding_on_a_tie_below_its_own_port_alone if {
	two := {"host": "node02", "devices": [{"name": "mlx5_0", "ca_type": "MT4129", "ports": [port(400, 4), object.union(port(200, 2), {"number": 2})]}]}
	fs := rule.findings with input as {"nodes": [node("node01", 100, 1), two]}
	{f.nodes[0] | some f in fs} == {"node01"}
}
