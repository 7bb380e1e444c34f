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

test_no_finding_without_a_majority if {
	count(rule.findings) == 0 with input as {"nodes": [node("node01", "Active"), node("node02", "Down")]}
}

test_no_finding_when_the_profile_states_the_count if {
	count(rule.findings) == 0 with input as {
		"nodes": [node("node01", "Active"), node("node02", "Down"), node("node03", "Active")],
		"profile": {"expected_active_ports": 2},
	}
}
