package rdmadoctor.rules.multiple_sm_priority_conflict_test

import data.rdmadoctor.rules.multiple_sm_priority_conflict as rule

ev(kind, line, text) := {"kind": kind, "evidence": {"path": "var/log/opensm.log", "line": line, "text": text}}

# corpus 112
switch_master := {"sm_guid": "0x08c0eb0300f6fc26", "sm_lid": 4, "priority": 15, "state": "SMINFO_MASTER", "evidence": {"line": 1}}

host_ports := [{"name": "mlx5_5", "ports": [{"number": 1, "port_guid": "0x08c0eb0300ea50e6"}]}]

test_fires_when_local_opensm_fails_beside_switch_master if {
	bind := ev("bind_failed", 1, "osm_sm_bind: ERR 2E10: SM MAD Controller bind failed (IB_ERROR) for port guid 0x8c0eb0300f6fc26, port index 0")
	inp := {"host": {"opensm": {"log_events": [bind]}}, "devices": host_ports, "fabric": {"sminfo": [switch_master]}}
	fs := rule.findings with input as inp
	count(fs) == 1
	some f in fs
	contains(f.message, "priority 15")
	contains(f.message, "not a port of this host")
	contains(f.message, "the master SM's own port")
}

test_fires_on_master_standby_flapping if {
	evs := [ev("master", 1, "Entering MASTER state"), ev("standby", 5, "Entering STANDBY state"), ev("master", 9, "Entering MASTER state")]
	fs := rule.findings with input as {"host": {"opensm": {"log_events": evs}}}
	count(fs) == 1
}

test_no_finding_for_healthy_standby_beside_master if {
	inp := {"host": {"opensm": {"log_events": [ev("standby", 4, "Entering STANDBY state")]}}, "devices": host_ports, "fabric": {"sminfo": [switch_master]}}
	count(rule.findings) == 0 with input as inp
}

test_no_finding_for_single_standby_at_start if {
	# corpus 101: one instance enters STANDBY once
	evs := [ev("exiting", 18, "Exiting SM"), ev("standby", 19, "Entering STANDBY state")]
	count(rule.findings) == 0 with input as {"host": {"opensm": {"log_events": evs}}}
}
