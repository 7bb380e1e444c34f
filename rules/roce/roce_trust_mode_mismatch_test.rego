package rdmadoctor.rules.roce_trust_mode_mismatch_test

import data.rdmadoctor.rules.roce_trust_mode_mismatch as rule

dev := {"name": "mlx5_0", "ports": [{"number": 1, "state": "Active", "link_layer": "Ethernet", "netdev": "ens1f0np0"}]}

test_fires_on_pcp_untagged if {
	nd := {"name": "ens1f0np0", "qos": {"trust": "pcp", "pfc_enabled": [3]}, "stats": {"rx_prio0_bytes": 918273645512, "rx_prio3_bytes": 0}}
	fs := rule.findings with input as {"devices": [dev], "netdevs": [nd]}
	count(fs) == 1
	some f in fs
	f.confidence == "high"
}

test_no_finding_with_vlan if {
	nd := {"name": "ens1f0np0", "qos": {"trust": "pcp", "pfc_enabled": [3]}}
	count(rule.findings) == 0 with input as {"devices": [dev], "netdevs": [nd, {"name": "ens1f0np0.100"}]}
}

test_no_finding_with_dscp if {
	count(rule.findings) == 0 with input as {"devices": [dev], "netdevs": [{"name": "ens1f0np0", "qos": {"trust": "dscp", "pfc_enabled": [3]}}]}
}
