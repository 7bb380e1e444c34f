package rdmadoctor.rules.fleet_firmware_skew_test

import data.rdmadoctor.rules.fleet_firmware_skew as rule

# mlx5_0 of corpus case 005 (sysfs fw_ver and board_id of an H100 node's ConnectX-7).
dev(fw) := {
	"name": "mlx5_0", "ca_type": "MT4129", "psid": "MT_0000000838", "firmware": fw,
	"evidence": {"firmware": {"source": "sysfs_infiniband", "path": "sys/class/infiniband/mlx5_0/fw_ver", "line": 0, "text": fw}},
}

node(host, fw) := {"host": host, "devices": [dev(fw)]}

test_fires_on_the_odd_node if {
	fs := rule.findings with input as {"nodes": [node("node01", "28.41.1000"), node("node02", "28.39.1002"), node("node03", "28.41.1000")]}
	count(fs) == 1
	some f in fs
	f.nodes == ["node02"]
	f.subject == {"device": "mlx5_0"}
	f.message == "node02 mlx5_0 runs 28.39.1002 while 2 nodes with PSID MT_0000000838 run 28.41.1000"
	[e.host | some e in f.evidence] == ["node02", "node01"]
	f.vars.version == "28.41.1000"
}

bare(host, fw) := {"host": host, "devices": [object.remove(dev(fw), ["psid"])]}

test_fires_by_ca_type_without_psid if {
	fs := rule.findings with input as {"nodes": [bare("node01", "28.41.1000"), bare("node02", "28.39.1002"), bare("node03", "28.41.1000")]}
	some f in fs
	f.message == "node02 mlx5_0 runs 28.39.1002 while 2 nodes with CA type MT4129 run 28.41.1000"
}

test_fires_on_a_tie_with_each_version if {
	fs := rule.findings with input as {"nodes": [node("node01", "28.41.1000"), node("node02", "28.39.1002")]}
	count(fs) == 2
	some f in fs
	f.nodes == ["node02"]
	f.subject == {"device": "mlx5_0"}
	f.confidence == "low"
	f.message == "adapters with PSID MT_0000000838 run 28.39.1002 on node02, and no version is on more nodes than every other: 28.39.1002 on node02, 28.41.1000 on node01"
	[e.host | some e in f.evidence] == ["node02"]
	f.vars == {"version": "28.41.1000", "psid": "MT_0000000838"}
	some g in fs
	g.nodes == ["node01"]
}

test_no_split_reported_with_a_majority if {
	fs := rule.findings with input as {"nodes": [node("node01", "28.41.1000"), node("node02", "28.39.1002"), node("node03", "28.41.1000")]}
	every f in fs {
		not f.confidence
	}
}

test_fires_below_the_profile_minimum_even_in_the_majority if {
	fs := rule.findings with input as {
		"nodes": [node("node01", "28.39.1002"), node("node02", "28.39.1002"), node("node03", "28.41.1000")],
		"profile": {"min_firmware": {"MT4129": "28.41.1000"}},
	}
	count(fs) == 2
	{f.nodes[0] | some f in fs} == {"node01", "node02"}
	every f in fs {
		f.confidence == "high"
	}
}

test_no_finding_when_all_match if {
	count(rule.findings) == 0 with input as {"nodes": [node("node01", "28.41.1000"), node("node02", "28.41.1000")]}
}

test_no_finding_across_psids if {
	other := {"host": "node02", "devices": [object.union(dev("28.39.1002"), {"psid": "MT_0000000884"})]}
	count(rule.findings) == 0 with input as {"nodes": [node("node01", "28.41.1000"), other, node("node03", "28.41.1000")]}
}

test_no_finding_when_the_profile_minimum_is_met if {
	count(rule.findings) == 0 with input as {
		"nodes": [node("node01", "28.41.1000"), node("node02", "28.42.1000"), node("node03", "28.41.1000")],
		"profile": {"min_firmware": {"MT4129": "28.41.1000"}},
	}
}

# mlx5_0 of node02 with the fw_ver file there but empty: not judged, never taken for a match.
blank(host) := {"host": host, "devices": [object.remove(dev(""), ["firmware"])]}

test_not_judged_when_the_version_is_unknown if {
	fs := rule.findings with input as {"nodes": [node("node01", "28.41.1000"), blank("node02"), node("node03", "28.41.1000")]}
	count(fs) == 1
	some f in fs
	f.nodes == ["node02"]
	f.subject == {"device": "mlx5_0"}
	f.unknown == "its running firmware version is unknown (empty in the capture), so it is not compared with the 2 other nodes of PSID MT_0000000838"
	[e.path | some e in f.evidence] == ["sys/class/infiniband/mlx5_0/fw_ver"]
}

test_no_not_judged_without_peers_of_the_model if {
	other := {"host": "node01", "devices": [object.union(dev("28.41.1000"), {"psid": "MT_0000000884"})]}
	count(rule.findings) == 0 with input as {"nodes": [other, blank("node02")]}
}
