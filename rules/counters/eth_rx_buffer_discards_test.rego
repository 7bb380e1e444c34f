package rdmadoctor.rules.eth_rx_buffer_discards_test

import data.rdmadoctor.rules.eth_rx_buffer_discards as rule

test_fires_low_on_since_boot_discards if {
	nd := {"name": "ens1f0np0", "stats": {"rx_discards_phy": 58591428329, "rx_prio0_discards": 58591314012, "rx_packets_phy": 97052087562}}
	fs := rule.findings with input as {"sample": null, "devices": [], "netdevs": [nd]}
	count(fs) == 1
	some f in fs
	f.confidence == "low"
	f.severity == "warning"
	contains(f.message, "rx_discards_phy 58591428329")
}

test_fires_error_on_lossless_priority if {
	nd := {"name": "ens1f0np0", "qos": {"pfc_enabled": [3]}, "stats": {"rx_prio3_buf_discard": 4}, "stats_deltas": {"rx_prio3_buf_discard": 4}}
	fs := rule.findings with input as {"sample": {"interval_seconds": 10}, "devices": [], "netdevs": [nd]}
	some f in fs
	f.severity == "error"
	f.confidence == "medium"
}

test_no_finding_when_flat if {
	nd := {"name": "ens1f0np0", "stats": {"rx_discards_phy": 5000}, "stats_deltas": {"rx_discards_phy": 0}}
	count(rule.findings) == 0 with input as {"sample": {"interval_seconds": 10}, "devices": [], "netdevs": [nd]}
}

test_no_finding_on_few_since_boot if {
	count(rule.findings) == 0 with input as {"sample": null, "devices": [], "netdevs": [{"name": "ens1f0np0", "stats": {"rx_discards_phy": 12}}]}
}
