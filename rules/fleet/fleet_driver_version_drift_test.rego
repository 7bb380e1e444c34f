package rdmadoctor.rules.fleet_driver_version_drift_test

import data.rdmadoctor.rules.fleet_driver_version_drift as rule

# ethtool -i ib1 of corpus case 112 (MLNX_OFED 4.9-5.1.0's mlx5_core for IPoIB).
node(host, v) := {"host": host, "drivers": [{"name": "mlx5_core[ib_ipoib]", "version": v, "evidence": {
	"source": "ethtool_driver", "path": "ethtool_-i_ib1", "line": 2, "text": sprintf("version: %s", [v]),
}}]}

test_fires_on_the_odd_driver if {
	fs := rule.findings with input as {"nodes": [node("node01", "4.9-5.1.0"), node("node02", "5.8-1.0.1"), node("node03", "4.9-5.1.0")]}
	count(fs) == 1
	some f in fs
	f.nodes == ["node02"]
	f.message == "node02 runs mlx5_core[ib_ipoib] 5.8-1.0.1 while 2 nodes run 4.9-5.1.0"
	f.vars.driver == "mlx5_core[ib_ipoib]"
	[e.text | some e in f.evidence] == ["version: 5.8-1.0.1", "version: 4.9-5.1.0"]
}

test_no_finding_on_one_version if {
	count(rule.findings) == 0 with input as {"nodes": [node("node01", "4.9-5.1.0"), node("node02", "4.9-5.1.0")]}
}

test_fires_on_a_tie_with_each_version if {
	fs := rule.findings with input as {"nodes": [node("node01", "4.9-5.1.0"), node("node02", "5.8-1.0.1")]}
	count(fs) == 2
	some f in fs
	f.nodes == ["node02"]
	f.confidence == "low"
	f.message == "mlx5_core[ib_ipoib] 5.8-1.0.1 runs on node02, and no version of it is on more nodes than every other: 4.9-5.1.0 on node01, 5.8-1.0.1 on node02"
	[e.text | some e in f.evidence] == ["version: 5.8-1.0.1"]
	f.vars == {"driver": "mlx5_core[ib_ipoib]", "version": "4.9-5.1.0"}
	some g in fs
	g.nodes == ["node01"]
}

test_no_split_reported_with_a_majority if {
	fs := rule.findings with input as {"nodes": [node("node01", "4.9-5.1.0"), node("node02", "5.8-1.0.1"), node("node03", "4.9-5.1.0")]}
	every f in fs {
		not f.confidence
		f.nodes == ["node02"]
	}
}
