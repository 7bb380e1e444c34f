package rdmadoctor.rules.fleet_kernel_drift_test

import data.rdmadoctor.rules.fleet_kernel_drift as rule

# uname -a of fixtures/uname/hotsos-openstack-uname-a.txt (canonical/hotsos).
node(host, k) := {"host": host, "kernel": k, "evidence": {"kernel": {
	"source": "uname", "path": "sos_commands/kernel/uname_-a", "line": 1,
	"text": sprintf("Linux compute4 %s #110-Ubuntu SMP Thu Jan 13 18:22:13 UTC 2022 x86_64 x86_64 x86_64 GNU/Linux", [k]),
}}}

test_fires_on_the_odd_kernel if {
	fs := rule.findings with input as {"nodes": [node("node01", "5.4.0-97-generic"), node("node02", "5.4.0-96-generic"), node("node03", "5.4.0-97-generic")]}
	count(fs) == 1
	some f in fs
	f.nodes == ["node02"]
	f.message == "node02 runs kernel 5.4.0-96-generic while 2 nodes run 5.4.0-97-generic"
	[e.host | some e in f.evidence] == ["node02", "node01"]
}

test_no_finding_on_one_kernel if {
	count(rule.findings) == 0 with input as {"nodes": [node("node01", "5.4.0-97-generic"), node("node02", "5.4.0-97-generic")]}
}

test_no_finding_without_a_kernel if {
	count(rule.findings) == 0 with input as {"nodes": [node("node01", "5.4.0-97-generic"), {"host": "node02"}, node("node03", "5.4.0-97-generic")]}
}

test_fires_on_a_tie_with_each_release if {
	fs := rule.findings with input as {"nodes": [
		node("node01", "5.4.0-97-generic"), node("node02", "5.4.0-96-generic"),
		node("node03", "5.4.0-97-generic"), node("node04", "5.4.0-96-generic"),
	]}
	count(fs) == 2
	some f in fs
	f.nodes == ["node02", "node04"]
	f.confidence == "low"
	f.message == "kernel 5.4.0-96-generic runs on 2 nodes, and no release is on more nodes than every other: 5.4.0-96-generic on 2 nodes, 5.4.0-97-generic on 2 nodes"
	[e.host | some e in f.evidence] == ["node02"]
	f.vars.kernel == "5.4.0-97-generic"
	some g in fs
	g.nodes == ["node01", "node03"]
}

test_no_split_reported_with_a_majority if {
	fs := rule.findings with input as {"nodes": [node("node01", "5.4.0-97-generic"), node("node02", "5.4.0-96-generic"), node("node03", "5.4.0-97-generic")]}
	every f in fs {
		not f.confidence
		f.nodes == ["node02"]
	}
}
