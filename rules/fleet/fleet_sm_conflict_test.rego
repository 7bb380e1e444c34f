package rdmadoctor.rules.fleet_sm_conflict_test

import data.rdmadoctor.rules.fleet_sm_conflict as rule

# sminfo answers as fixtures/sminfo holds them: the oscar cluster's master (corpus 048) and
# the Quantum switch's master (corpus 112), placed in a subnet as facts/fabricview places them.
view(host, subnet, guid, lid, prio, text) := {
	"host": host, "device": "mlx5_0", "port": 1, "subnet": subnet, "sm_guid": guid, "sm_lid": lid, "priority": prio,
	"state": "SMINFO_MASTER",
	"evidence": {"host": host, "source": "sminfo", "path": "sminfo_-C_mlx5_0_-P_1", "line": 1, "text": text},
}

oscar(host, subnet) := view(host, subnet, "0x0002c90200259201", 2, 0, "sminfo: sm lid 2 sm guid 0x2c90200259201, activity count 6881 priority 0")

quantum(host, subnet) := view(host, subnet, "0x08c0eb0300f6fc26", 4, 15, "sminfo: sm lid 4 sm guid 0x8c0eb0300f6fc26, activity count 5568705 priority 15 state 3 SMINFO_MASTER")

test_fires_on_two_masters_of_one_subnet if {
	fs := rule.findings with input as {"fabric": {"sm_views": [oscar("node01", "0x0002c90300002f78/1"), quantum("node02", "0x0002c90300002f78/1")]}}
	count(fs) == 1
	some f in fs
	f.nodes == ["node01", "node02"]
	f.message == "2 subnet managers are MASTER of one subnet (the one of fabric port 0x0002c90300002f78/1): 0x0002c90200259201 (lid 2, priority 0; seen by node01); 0x08c0eb0300f6fc26 (lid 4, priority 15; seen by node02)"
	[e.host | some e in f.evidence] == ["node01", "node02"]
}

test_fires_on_a_changed_priority if {
	later := object.union(quantum("node02", "s"), {"priority": 14})
	some f in rule.findings with input as {"fabric": {"sm_views": [quantum("node01", "s"), later]}}
	f.severity == "info"
	f.message == "the master SM 0x08c0eb0300f6fc26 answers with priorities 14 and 15 to different nodes: its priority was changed between the captures (node01: priority 15; node02: priority 14)"
}

# the four oscar nodes (fixtures/sminfo/wrapped-multi-node.txt) reach one master.
test_no_finding_for_one_master if {
	count(rule.findings) == 0 with input as {"fabric": {"sm_views": [oscar("node01", "s"), oscar("node02", "s"), oscar("node03", "s"), oscar("node04", "s")]}}
}

# two masters whose subnets no capture showed, or two subnets: normal.
test_no_finding_across_subnets if {
	count(rule.findings) == 0 with input as {"fabric": {"sm_views": [oscar("node01", ""), quantum("node02", "")]}}
	count(rule.findings) == 0 with input as {"fabric": {"sm_views": [oscar("node01", "a"), quantum("node02", "b")]}}
}
