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
