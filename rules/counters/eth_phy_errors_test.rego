package rdmadoctor.rules.eth_phy_errors_test

import data.rdmadoctor.rules.eth_phy_errors as rule

test_fires_on_crc_delta if {
	nd := {"name": "ens1f0np0", "stats": {"rx_crc_errors_phy": 5712}, "stats_deltas": {"rx_crc_errors_phy": 12}}
	fs := rule.findings with input as {"sample": {"interval_seconds": 10}, "devices": [], "netdevs": [nd]}
	count(fs) == 1
	some f in fs
	f.confidence == "medium"
}

test_no_finding_on_corrected_bits_only if {
	nd := {"name": "ens1f0np0", "stats": {"rx_corrected_bits_phy": 918273, "rx_crc_errors_phy": 0}}
	count(rule.findings) == 0 with input as {"sample": null, "devices": [], "netdevs": [nd]}
}

test_no_finding_on_ipoib if {
	nd := {"name": "ib0", "kind": "ipoib", "stats": {"rx_crc_errors_phy": 5000}}
	count(rule.findings) == 0 with input as {"sample": null, "devices": [], "netdevs": [nd]}
}
