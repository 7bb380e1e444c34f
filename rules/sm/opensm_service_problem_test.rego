package rdmadoctor.rules.opensm_service_problem_test

import data.rdmadoctor.rules.opensm_service_problem as rule

ev(kind, line, text) := {"kind": kind, "evidence": {"path": "var/log/opensm.log", "line": line, "text": text}}

bind_failed := ev("bind_failed", 1, "Aug 24 04:32:59 236829 [95BD9740] 0x01 -> osm_sm_bind: ERR 2E10: SM MAD Controller bind failed (IB_ERROR) for port guid 0x8c0eb0300f6fc26, port index 0")

exiting := ev("exiting", 8, "Exiting SM")

test_fires_when_unit_failed if {
	svcs := {"opensm": {"active": "failed", "loaded": "loaded", "evidence": {"line": 3}}}
	fs := rule.findings with input as {"host": {"services": svcs}}
	count(fs) == 1
	some f in fs
	contains(f.message, "opensm.service is failed")
}

test_fires_when_log_never_comes_up if {
	svcs := {"opensmd": {"active": "active", "sub": "exited", "loaded": "loaded"}}
	devs := [{"name": "mlx5_5", "ports": [{"number": 1, "port_guid": "0x08c0eb0300ea50e6"}]}]
	fs := rule.findings with input as {"host": {"services": svcs, "opensm": {"log_events": [bind_failed, exiting]}}, "devices": devs}
	count(fs) == 1
	some f in fs
	contains(f.message, "is not a port of this host")
	contains(f.message, "active (exited)")
	not f.severity
}

test_fires_warning_when_one_instance_exits if {
	# corpus 101: the instance on the Ethernet port's GUID exits, the other enters STANDBY
	evs := [ev("exiting", 18, "Dec 30 00:07:32 node01 OpenSM[3107]: Exiting SM"), ev("standby", 19, "Dec 30 00:07:32 node01 OpenSM[3110]: Entering STANDBY state")]
	fs := rule.findings with input as {"host": {"services": {"opensm": {"active": "active", "sub": "running"}}, "opensm": {"log_events": evs}}}
	some f in fs
	f.severity == "warning"
}

test_no_finding_when_master_sm_is_elsewhere if {
	# corpus 112: the switch SM is master; the local attempt is multiple-sm-priority-conflict's
	inp := {
		"host": {"opensm": {"log_events": [bind_failed, exiting]}},
		"devices": [{"name": "mlx5_5", "ports": [{"number": 1, "port_guid": "0x08c0eb0300ea50e6"}]}],
		"fabric": {"sminfo": [{"sm_guid": "0x08c0eb0300f6fc26", "state": "SMINFO_MASTER", "priority": 15}]},
	}
	count(rule.findings) == 0 with input as inp
}

test_no_finding_for_transient_port_down_at_boot if {
	evs := [ev("sm_port_down", 3, "SM port is down"), ev("master", 9, "Entering MASTER state"), ev("subnet_up", 12, "SUBNET UP")]
	count(rule.findings) == 0 with input as {"host": {"opensm": {"log_events": evs}}}
}

test_no_finding_when_disabled_on_purpose if {
	svcs := {"opensm": {"active": "inactive", "enabled": "disabled", "loaded": "loaded"}}
	count(rule.findings) == 0 with input as {"host": {"services": svcs}}
}

test_fires_with_sm_disabled_note if {
	# corpus 056: BlueField-3 host side, capability mask has IsSMDisabled
	devs := [{"name": "mlx5_0", "ports": [{"number": 1, "link_layer": "InfiniBand", "is_sm_disabled": true, "evidence": {"capability_mask": {"line": 9}}}]}]
	evs := [ev("bind_failed", 12, "Error from osm_opensm_bind (0x2A)"), ev("exiting", 14, "Exiting SM")]
	fs := rule.findings with input as {"devices": devs, "host": {"opensm": {"log_events": evs}}}
	some f in fs
	contains(f.message, "IsSMDisabled")
	count(f.evidence) == 3
}
