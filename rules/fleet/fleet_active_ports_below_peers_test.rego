package rdmadoctor.rules.fleet_active_ports_below_peers_test

import data.rdmadoctor.rules.fleet_active_ports_below_peers as rule

# Two ConnectX-7 of corpus case 005 (sysfs state "4: ACTIVE").
port(state) := {"number": 1, "state": state, "evidence": {"state": {"source": "sysfs_infiniband", "path": "sys/class/infiniband/mlx5_1/ports/1/state", "line": 0, "text": "1: DOWN"}}}

node(host, second) := {"host": host, "devices": [
	{"name": "mlx5_0", "ca_type": "MT4129", "ports": [port("Active")]},
	{"name": "mlx5_1", "ca_type": "MT4129", "ports": [port(second)]},
]}

test_fires_on_a_rail_down if {
	fs := rule.findings with input as {"nodes": [node("node01", "Active"), node("node02", "Down"), node("node03", "Active")]}
	count(fs) == 1
	some f in fs
	f.nodes == ["node02"]
	f.message == "node02 has 1 Active MT4129 port while 2 nodes have 2"
	f.evidence[0].host == "node02"
	f.evidence[0].text == "1: DOWN"
}

test_no_finding_when_all_have_the_same if {
	count(rule.findings) == 0 with input as {"nodes": [node("node01", "Down"), node("node02", "Down")]}
}

test_fires_on_a_tie_below_the_most if {
	fs := rule.findings with input as {"nodes": [node("node01", "Active"), node("node02", "Down")]}
	count(fs) == 1
	some f in fs
	f.nodes == ["node02"]
	f.confidence == "low"
	f.message == "node02 has 1 Active MT4129 port while node01 has 2, the most of its peers (no count is on more nodes than every other: 1 Active on node02, 2 Active on node01)"
	f.evidence[0].host == "node02"
	f.evidence[0].text == "1: DOWN"
}

test_no_finding_on_a_tie_at_the_most if {
	fs := rule.findings with input as {"nodes": [node("node01", "Active"), node("node02", "Down"), node("node03", "Active"), node("node04", "Down")]}
	{f.nodes[0] | some f in fs} == {"node02", "node04"}
}

test_no_finding_when_the_profile_states_the_count if {
	count(rule.findings) == 0 with input as {
		"nodes": [node("node01", "Active"), node("node02", "Down"), node("node03", "Active")],
		"profile": {"expected_active_ports": 2},
	}
}
