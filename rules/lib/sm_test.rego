package rdmadoctor.lib.sm_test

import data.rdmadoctor.lib.sm

test_guid_is_padded if {
	sm.guid("0x8c0eb0300f6fc26") == "0x08c0eb0300f6fc26"
	sm.guid("1122334477667791") == "0x1122334477667791"
}

test_remote_master_from_sminfo if {
	# corpus 112: the switch SM is master, the host's port GUID differs
	inp := {
		"devices": [{"name": "mlx5_5", "ports": [{"number": 1, "port_guid": "0x08c0eb0300ea50e6"}]}],
		"fabric": {"sminfo": [{"sm_guid": "0x08c0eb0300f6fc26", "state": "SMINFO_MASTER", "priority": 15}]},
	}
	m := sm.remote_master with input as inp
	m.priority == 15
}

test_no_remote_master_when_local if {
	inp := {
		"devices": [{"name": "mlx5_0", "ports": [{"number": 1, "port_guid": "0x08c0eb0300f6fc26"}]}],
		"fabric": {"sminfo": [{"sm_guid": "0x8c0eb0300f6fc26", "state": "SMINFO_MASTER"}]},
	}
	not sm.remote_master with input as inp
}

test_log_guid_from_bind_failure if {
	t := "Aug 24 04:32:59 236829 [95BD9740] 0x01 -> osm_sm_bind: ERR 2E10: SM MAD Controller bind failed (IB_ERROR) for port guid 0x8c0eb0300f6fc26, port index 0"
	sm.log_guid(t) == "0x08c0eb0300f6fc26"
	sm.log_guid("state_mgr_is_sm_port_down: ERR 3309: SM port with GUID:1122334477667791 is unknown") == "0x1122334477667791"
}

test_failed_services if {
	svcs := {"opensm": {"active": "failed", "loaded": "loaded"}, "opensmd": {"active": "inactive", "enabled": "disabled"}}
	fs := sm.failed_services with input as {"host": {"services": svcs}}
	object.keys(fs) == {"opensm"}
}

test_sm_disabled_needs_every_ib_port if {
	one := {"number": 1, "link_layer": "InfiniBand", "is_sm_disabled": true}
	two := {"number": 2, "link_layer": "InfiniBand", "is_sm_disabled": false}
	sm.sm_disabled with input as {"devices": [{"name": "mlx5_0", "ports": [one]}]}
	not sm.sm_disabled with input as {"devices": [{"name": "mlx5_0", "ports": [one, two]}]}
}
