package rdmadoctor.rules.switch_hardware_fault_test

import data.rdmadoctor.rules.switch_hardware_fault

ev(line, text) := {"source": "ibswinfo", "path": "ibswinfo_-d_lid-XXX", "line": line, "text": text}

ok(name, line, text) := {"name": name, "value": "OK", "evidence": ev(line, text)}

# corpus 024: an MSB7790 whose fan trays report ERROR while both PSUs are OK.
msb7790 := {
	"target": "lid-XXX", "node_description": "SwitchIB Mellanox Technologies", "guid": "0x1c34da0300010540",
	"temperature_c": 45, "max_temperature_c": 57, "warn_low_c": null, "warn_high_c": null,
	"statuses": [
		ok("psu0.status", 15, "PSU0 status        | OK"), ok("psu0.dc", 18, "     DC power      | OK"),
		ok("psu1.status", 21, "PSU1 status        | OK"), ok("psu1.dc", 24, "     DC power      | OK"),
		{"name": "fans", "value": "ERROR", "evidence": ev(31, "fan status         | ERROR")},
	],
	"evidence": {"temperature_c": ev(28, "temperature (C)    | 45")},
}

test_fires_on_fan_error if {
	fs := switch_hardware_fault.findings with input as {"fabric": {"switches": [msb7790]}}
	count(fs) == 1
	some f in fs
	f.subject == {"node_guid": "0x1c34da0300010540", "node_description": "SwitchIB Mellanox Technologies"}
	f.message == `switch 0x1c34da0300010540 "SwitchIB Mellanox Technologies": ibswinfo fans ERROR: a fan tray is below or above its speed limit`
	f.vars.target == "lid-XXX"
	f.evidence == [ev(31, "fan status         | ERROR")]
}

# an MQM8790 whose PSU1 lost power: DC power and the PSU's fan both ERROR.
test_fires_on_psu_without_dc_power if {
	sw := object.union(msb7790, {"statuses": [
		ok("fans", 31, "fan status         | OK"),
		{"name": "psu1.dc", "value": "ERROR", "evidence": ev(24, "     DC power      | ERROR")},
		{"name": "psu1.fan", "value": "ERROR", "evidence": ev(25, "     fan status    | ERROR")},
	]})
	msgs := {f.message | some f in switch_hardware_fault.findings with input as {"fabric": {"switches": [sw]}}}
	msgs == {
		`switch 0x1c34da0300010540 "SwitchIB Mellanox Technologies": ibswinfo psu1.dc ERROR: PSU1 has no DC power (power cord or supply failed)`,
		`switch 0x1c34da0300010540 "SwitchIB Mellanox Technologies": ibswinfo psu1.fan ERROR: PSU1 has a failed fan`,
	}
}

test_fires_at_the_warning_temperature if {
	sw := object.union(msb7790, {
		"statuses": [], "temperature_c": 96, "warn_low_c": 95, "warn_high_c": 105,
		"evidence": {"temperature_c": ev(28, "temperature (C)    | 96"), "warn_low_c": ev(30, "warn threshold (C) | 95/105 (low/high)")},
	})
	some f in switch_hardware_fault.findings with input as {"fabric": {"switches": [sw]}}
	not f.severity
	count(f.evidence) == 2
}

# the README's MQM8790: 34 C against 95/105, everything OK.
test_no_finding_on_a_healthy_switch if {
	sw := object.union(msb7790, {"statuses": [ok("fans", 31, "fan status         | OK")], "temperature_c": 34, "warn_low_c": 95, "warn_high_c": 105})
	count(switch_hardware_fault.findings) == 0 with input as {"fabric": {"switches": [sw]}}
}

# a switch without thresholds (older ibswinfo) is not judged on its temperature alone.
test_no_temperature_finding_without_thresholds if {
	sw := object.union(msb7790, {"statuses": [], "temperature_c": 99})
	count(switch_hardware_fault.findings) == 0 with input as {"fabric": {"switches": [sw]}}
}
