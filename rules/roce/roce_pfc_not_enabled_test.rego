package rdmadoctor.rules.roce_pfc_not_enabled_test

import data.rdmadoctor.rules.roce_pfc_not_enabled as rule

dev := {"name": "mlx5_0", "ports": [{"number": 1, "state": "Active", "link_layer": "Ethernet", "netdev": "ens1f0np0"}]}

test_fires_when_mlnx_qos_shows_no_pfc if {
	fs := rule.findings with input as {"devices": [dev], "netdevs": [{"name": "ens1f0np0", "qos": {"trust": "pcp", "pfc_enabled": []}, "pause": {"rx": true, "tx": true}}]}
	count(fs) == 1
	some f in fs
	contains(f.message, "global pause is on")
}

test_fires_low_on_global_pause_counters if {
	nd := {"name": "ens1f0np0", "qos": null, "stats": {"tx_pause_ctrl_phy": 5745055, "rx_prio0_bytes": 10}}
	fs := rule.findings with input as {"sample": null, "devices": [dev], "netdevs": [nd]}
	some f in fs
	f.confidence == "low"
}

test_no_finding_with_pfc_on_3 if {
	count(rule.findings) == 0 with input as {"devices": [dev], "netdevs": [{"name": "ens1f0np0", "qos": {"trust": "dscp", "pfc_enabled": [3]}}]}
}

test_no_finding_when_prio_pause_counts if {
	nd := {"name": "ens1f0np0", "stats": {"tx_pause_ctrl_phy": 500, "tx_prio3_pause": 500}}
	count(rule.findings) == 0 with input as {"sample": null, "devices": [dev], "netdevs": [nd]}
}

test_no_finding_on_infiniband if {
	d := {"name": "mlx5_0", "ports": [{"number": 1, "state": "Active", "link_layer": "InfiniBand", "netdev": "ib0"}]}
	count(rule.findings) == 0 with input as {"devices": [d], "netdevs": [{"name": "ib0", "qos": {"pfc_enabled": []}}]}
}
