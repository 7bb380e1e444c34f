package rdmadoctor.rules.fleet_memlock_drift_test

import data.rdmadoctor.rules.fleet_memlock_drift as rule

# ulimit -a of corpus case 110 (an SGE job: "max locked memory (kbytes, -l) 32").
limit(v) := {"soft_kib": v, "unlimited": false, "evidence": {
	"source": "ulimit", "path": "ulimit_-a", "line": 5,
	"text": sprintf("max locked memory       (kbytes, -l) %d", [v]),
}}

unlimited := {"soft_kib": null, "unlimited": true, "evidence": {
	"source": "ulimit", "path": "ulimit_-a", "line": 5,
	"text": "max locked memory       (kbytes, -l) unlimited",
}}

test_fires_on_a_lower_limit if {
	fs := rule.findings with input as {"nodes": [
		{"host": "node01", "memlock": unlimited},
		{"host": "node02", "memlock": limit(32)},
		{"host": "node03", "memlock": unlimited},
	]}
	count(fs) == 1
	some f in fs
	f.nodes == ["node02"]
	f.severity == "warning"
	f.message == "node02 allows 32 KiB locked memory while 2 nodes allow unlimited"
	[e.host | some e in f.evidence] == ["node02", "node01"]
}

test_fires_as_a_note_on_a_higher_limit if {
	fs := rule.findings with input as {"nodes": [
		{"host": "node01", "memlock": limit(32)},
		{"host": "node02", "memlock": unlimited},
		{"host": "node03", "memlock": limit(32)},
	]}
	some f in fs
	f.severity == "info"
}

test_no_finding_when_all_match if {
	count(rule.findings) == 0 with input as {"nodes": [{"host": "node01", "memlock": unlimited}, {"host": "node02", "memlock": unlimited}]}
}

test_no_finding_without_a_limit if {
	count(rule.findings) == 0 with input as {"nodes": [{"host": "node01", "memlock": unlimited}, {"host": "node02", "memlock": null}, {"host": "node03", "memlock": unlimited}]}
}

test_fires_on_a_tie_with_each_limit if {
	fs := rule.findings with input as {"nodes": [
		{"host": "node01", "memlock": unlimited},
		{"host": "node02", "memlock": limit(32)},
	]}
	count(fs) == 2
	some f in fs
	f.nodes == ["node02"]
	f.severity == "warning"
	f.confidence == "low"
	f.message == "the locked-memory limit is 32 KiB on node02, and no limit is on more nodes than every other: 32 KiB on node02, unlimited on node01"
	[e.host | some e in f.evidence] == ["node02"]
	f.vars.limit == "unlimited"
	some g in fs
	g.nodes == ["node01"]
	g.severity == "info"
}

test_no_split_reported_with_a_majority if {
	fs := rule.findings with input as {"nodes": [
		{"host": "node01", "memlock": unlimited},
		{"host": "node02", "memlock": limit(32)},
		{"host": "node03", "memlock": unlimited},
		{"host": "node04", "memlock": limit(64)},
	]}
	count(fs) == 2
	every f in fs {
		not f.confidence
	}
}
