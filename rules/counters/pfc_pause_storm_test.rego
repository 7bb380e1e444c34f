package rdmadoctor.rules.pfc_pause_storm_test

import data.rdmadoctor.rules.pfc_pause_storm as rule

test_fires_on_error_events if {
	nd := {"name": "ens1f0np0", "stats": {"tx_pause_storm_warning_events": 12, "tx_pause_storm_error_events": 1}}
	fs := rule.findings with input as {"sample": null, "devices": [], "netdevs": [nd]}
	count(fs) == 1
	some f in fs
	f.severity == "error"
	f.confidence == "medium"
}

test_fires_warning_level if {
	nd := {"name": "ens1f0np0", "stats": {"tx_pause_storm_warning_events": 12, "tx_pause_storm_error_events": 0}}
	fs := rule.findings with input as {"sample": null, "devices": [], "netdevs": [nd]}
	some f in fs
	f.severity == "warning"
}

test_no_finding_when_zero if {
	nd := {"name": "ens1f0np0", "stats": {"tx_pause_storm_warning_events": 0, "tx_pause_storm_error_events": 0}}
	count(rule.findings) == 0 with input as {"sample": null, "devices": [], "netdevs": [nd]}
}
