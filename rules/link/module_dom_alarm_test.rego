package rdmadoctor.rules.module_dom_alarm_test

import data.rdmadoctor.rules.module_dom_alarm as rule

test_fires_error_on_rx_power_low_alarm if {
	nd := {"name": "swp13", "kind": "ethernet", "module": {"identifier": "QSFP28", "vendor_name": "Mellanox", "vendor_pn": "MMA1B00-C100D", "alarms": ["Laser rx power low alarm (Channel 1)", "Laser rx power low warning (Channel 1)"]}}
	fs := rule.findings with input as {"devices": [], "netdevs": [nd]}
	count(fs) == 1
	some f in fs
	f.severity == "error"
}

test_fires_warning_on_temperature_warning if {
	nd := {"name": "ens1f0", "kind": "ethernet", "module": {"identifier": "QSFP28", "alarms": ["Module temperature high warning"]}}
	fs := rule.findings with input as {"devices": [], "netdevs": [nd]}
	some f in fs
	f.severity == "warning"
}

test_no_finding_without_alarms_or_on_ipoib if {
	count(rule.findings) == 0 with input as {"devices": [], "netdevs": [{"name": "ens1f0", "kind": "ethernet", "module": {"identifier": "QSFP28", "alarms": []}}]}
	count(rule.findings) == 0 with input as {"devices": [], "netdevs": [{"name": "ib0", "kind": "ipoib", "module": {"alarms": ["Laser rx power low alarm"]}}]}
}
