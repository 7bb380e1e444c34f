# METADATA
# title: Subnet manager facts
# description: >-
#   What the opensm service, its log (Host.OpenSM.LogEvents, classified by facts/parse/opensm.go)
#   and sminfo say about the subnet manager: this host's port GUIDs, a master SM elsewhere in the
#   fabric, and the log lines that show opensm failing (bind failed, SM port down or unknown,
#   Exiting SM) or working (SUBNET UP, Entering MASTER/STANDBY state). opensm(8), osm_state_mgr.c.
# scope: package
package rdmadoctor.lib.sm

# guid normalises "0x8c0eb0300f6fc26", "1122334477667791" or "0x08c0eb0300f6fc26" to 0x + 16 digits.
guid(s) := concat("", ["0x", pad(h)]) if {
	h := lower(trim_prefix(trim_space(s), "0x"))
	regex.match(`^[0-9a-f]{1,16}$`, h)
}

pad(h) := concat("", [substring("0000000000000000", 0, 16 - count(h)), h])

# local_guids are the port GUIDs of this host's RDMA ports.
local_guids := {guid(p.port_guid) | some d in input.devices; some p in d.ports; object.get(p, "port_guid", "") != ""}

# remote_master is an sminfo answer from a master SM that is not on this host.
remote_master := m if {
	count(local_guids) > 0
	masters := [s |
		some s in input.fabric.sminfo
		s.state == "SMINFO_MASTER"
		object.get(s, "sm_guid", "") != ""
		not guid(s.sm_guid) in local_guids
	]
	count(masters) > 0
	m := masters[0]
}

problem_kinds := {"bind_failed", "sm_port_down", "exiting"}

healthy_kinds := {"subnet_up", "master", "standby"}

log_events := object.get(object.get(input.host, "opensm", {}), "log_events", [])

problems := [e | some e in log_events; e.kind in problem_kinds]

healthy := [e | some e in log_events; e.kind in healthy_kinds]

# services are the opensm units systemd knows ("opensmd" with MLNX_OFED).
services := {name: svc |
	some name, svc in object.get(input.host, "services", {})
	name in {"opensm", "opensmd"}
	object.get(svc, "loaded", "") != "not-found"
}

# failed_services are opensm units that failed, or are enabled but not running.
failed_services := {name: svc |
	some name, svc in services
	not_running(svc)
}

not_running(svc) if svc.active == "failed"

not_running(svc) if {
	svc.active == "inactive"
	svc.enabled == "enabled"
}

# log_guid returns the port GUID a log line names ("for port guid 0x8c0...", "GUID:1122..."), or "".
log_guid(text) := guid(m[0][1]) if {
	m := regex.find_all_string_submatch_n(`(?i)(?:port guid |GUID:\s*|by guid:\s*)(0x[0-9a-f]+|[0-9a-f]{16})`, text, 1)
	count(m) == 1
} else := ""

# foreign_guid_note tells when the GUID opensm was told to use is not a port of this host.
foreign_guid_note(text) := sprintf(" (port GUID %s is not a port of this host - opensm -g takes a local port GUID, see ibstat -p)", [g]) if {
	g := log_guid(text)
	g != ""
	count(local_guids) > 0
	not g in local_guids
} else := ""

# ib_ports are this host's InfiniBand ports (physical functions, first capture) as [device, port].
ib_ports := [[d, p] |
	some d in input.devices
	object.get(d, "capture", "") == ""
	object.get(d, "function", "") != "VF"
	some p in d.ports
	p.link_layer == "InfiniBand"
]

# sm_disabled holds when every local InfiniBand port has IsSMDisabled set in its capability mask:
# the firmware does not let this host act as SM (e.g. BlueField in DPU mode, host side).
sm_disabled if {
	count(ib_ports) > 0
	every dp in ib_ports {
		dp[1].is_sm_disabled == true
	}
}

sm_disabled_note := "; every local InfiniBand port has IsSMDisabled set, so no SM can run on this host - run it on a managed switch, UFM or the BlueField Arm OS" if sm_disabled

else := ""

sm_disabled_evidence := [e |
	sm_disabled
	some dp in ib_ports
	some f in ["capability_mask", "is_sm_disabled"]
	e := dp[1].evidence[f]
]
