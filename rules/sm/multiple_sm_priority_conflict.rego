# METADATA
# title: Several subnet managers compete for the fabric
# description: >-
#   More than one subnet manager is active on the fabric without a clear order: opensm keeps
#   switching between MASTER and STANDBY, or this host starts its own opensm while the fabric's
#   master SM runs elsewhere (a switch or UFM). Hand-overs trigger heavy sweeps and LID/route
#   churn, and SMs with different partition or QoS settings change the fabric depending on who
#   wins. One master and lower-priority standbys is the intended design and is not reported.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/opensm/blob/master/man/opensm.8.in
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/sminfo.c
#   - ref: https://docs.nvidia.com/networking/display/ufmenterpriseumv6113/fabric+validation+tab
# custom:
#   id: multiple-sm-priority-conflict
#   area: sm
#   severity: warning
#   confidence: medium
#   requires: []
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: sminfo
#       note: shows the master SM's GUID, LID and priority (0-15, highest wins; a tie goes to the lowest GUID)
#     - command: systemctl disable --now opensm
#       note: on hosts that should not run an SM when a switch or UFM SM is master (opensmd with MLNX_OFED)
#     - command: "echo 'sm_priority 14' >> /etc/opensm/opensm.conf"
#       note: or keep the host SM as a deliberate standby - bound to a local port GUID with a priority below the master's
package rdmadoctor.rules.multiple_sm_priority_conflict

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.sm

# The fabric's master SM is elsewhere, yet this host keeps starting its own opensm, which fails.
findings contains f if {
	m := sm.remote_master
	count(sm.problems) + count(sm.failed_services) > 0
	p := local_failure
	f := finding.node(
		sprintf("this host starts its own opensm while the fabric's master SM is elsewhere (sminfo: guid %s, lid %v, priority %v), and it fails: %q%s%s", [m.sm_guid, m.sm_lid, m.priority, trim_space(p.text), sm.foreign_guid_note(p.text), master_guid_note(m, p.text)]),
		[m.evidence, p],
	)
}

local_failure := sm.problems[0].evidence if count(sm.problems) > 0

else := svc.evidence if {
	some _, svc in sm.failed_services
}

# opensm alternates between MASTER and STANDBY: SMs of equal priority keep taking over.
findings contains f if {
	some path in {e.evidence.path | some e in sm.log_events}
	states := [e | some e in sm.log_events; e.evidence.path == path; e.kind in {"master", "standby"}]
	flips := [i | some i in numbers.range(1, count(states) - 1); states[i].kind != states[i - 1].kind]
	count(flips) >= 2
	f := finding.node(
		sprintf("opensm switched between MASTER and STANDBY %d times in %s: another SM with the same priority keeps taking over", [count(flips), path]),
		[states[i].evidence | some i in array.slice(flips, 0, 3)],
	)
}

master_guid_note(m, text) := "; that GUID is the master SM's own port" if {
	sm.log_guid(text) == sm.guid(m.sm_guid)
} else := ""
