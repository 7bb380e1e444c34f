package rdmadoctor.rules.roce_ecn_congestion_control_disabled_test

import data.rdmadoctor.rules.roce_ecn_congestion_control_disabled as rule

dev := {"name": "mlx5_0", "ports": [{"number": 1, "state": "Active", "link_layer": "Ethernet", "netdev": "ens1f0np0"}]}

test_fires_when_rp_off if {
	nd := {"name": "ens1f0np0", "ecn": {"np_enabled": {"3": true}, "rp_enabled": {"3": false}}, "evidence": {"ecn.rp_enabled.3": {"path": "sys/class/net/ens1f0np0/ecn/roce_rp/enable/3", "text": "0"}}}
	fs := rule.findings with input as {"devices": [dev], "netdevs": [nd]}
	count(fs) == 1
	some f in fs
	contains(f.message, "reaction point")
	count(f.evidence) == 1
}

test_fires_on_cnp_ignored if {
	p := {"number": 1, "state": "Active", "link_layer": "Ethernet", "hw_counters": {"rp_cnp_ignored": 18234}}
	fs := rule.findings with input as {"sample": null, "devices": [{"name": "mlx5_0", "ports": [p]}], "netdevs": []}
	some f in fs
	f.confidence == "low"
}

test_no_finding_when_enabled_or_absent if {
	nd := {"name": "ens1f0np0", "ecn": {"np_enabled": {"3": true}, "rp_enabled": {"3": true, "0": false}}}
	count(rule.findings) == 0 with input as {"devices": [dev], "netdevs": [nd]}
	count(rule.findings) == 0 with input as {"devices": [dev], "netdevs": [{"name": "ens1f0np0", "ecn": null}]}
}
