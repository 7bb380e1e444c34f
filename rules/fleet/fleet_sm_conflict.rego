# METADATA
# title: Several subnet managers are master of one subnet
# description: >-
#   Nodes whose ports are in one subnet (their HCA ports joined by the fabric captures) reach
#   different master subnet managers: sminfo from one node answers with one SM's GUID in
#   SMINFO_MASTER state, from another with another's. A subnet has one master; two means the
#   fabric was split (a broken inter-switch link, a switch rebooted) and each part elected its
#   own, or SMs of equal priority keep taking the subnet from each other. Either way LIDs and
#   routes change under the nodes. The same master answering with different priorities to
#   different nodes (captures of different times) is reported as info: its priority was
#   changed. Answers whose subnet no capture shows are never compared: two masters of two
#   subnets are normal.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/man/sminfo.8.in
#   - ref: https://github.com/linux-rdma/opensm/blob/master/man/opensm.8.in
# custom:
#   id: fleet-sm-conflict
#   area: fleet
#   severity: error
#   confidence: medium
#   requires: [fleet_fabric_sm]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: sminfo
#       note: on {{nodes}} - which master each answers now (GUID, LID, priority 0-15, the highest wins, a tie goes to the lowest GUID)
#     - command: ibdiagnet
#       note: the subnet as one node sees it - its SM report lists every SM with its state and priority, its link checks a split
#     - command: "echo 'sm_priority 14' >> /etc/opensm/opensm.conf"
#       note: give the intended master the highest priority and the others lower ones (or disable opensm on nodes that should not run one)
package rdmadoctor.rules.fleet_sm_conflict

import data.rdmadoctor.lib.fleet.fabric

findings contains f if {
	some s in fabric.sm_subnets
	ms := fabric.masters(s)
	guids := {m.sm_guid | some m in ms}
	count(guids) > 1
	f := {
		"nodes": sort({m.host | some m in ms}),
		"subject": {},
		"message": sprintf("%d subnet managers are MASTER of one subnet (the one of fabric port %s): %s", [
			count(guids), s, concat("; ", [fabric.sm_note(g, ms) | some g in sort(guids)]),
		]),
		"evidence": [fabric.sm_line(g, ms) | some g in sort(guids)],
	}
}

findings contains f if {
	some s in fabric.sm_subnets
	ms := fabric.masters(s)
	some g in {m.sm_guid | some m in ms}
	prios := {m.priority | some m in ms; m.sm_guid == g}
	count(prios) > 1
	f := {
		"nodes": sort({m.host | some m in ms; m.sm_guid == g}),
		"subject": {},
		"message": sprintf("the master SM %s answers with priorities %s to different nodes: its priority was changed between the captures (%s)", [
			g, concat(" and ", [sprintf("%v", [p]) | some p in sort(prios)]),
			concat("; ", sort({sprintf("%s: priority %v", [m.host, m.priority]) | some m in ms; m.sm_guid == g})),
		]),
		"evidence": sort([m.evidence | some m in ms; m.sm_guid == g]),
		"severity": "info",
	}
}
