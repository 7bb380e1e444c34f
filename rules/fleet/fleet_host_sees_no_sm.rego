# METADATA
# title: A node sees no subnet manager while others in its subnet do
# description: >-
#   A node's InfiniBand port is in a subnet (the fabric captures join it there) where other
#   nodes' sminfo reaches a master subnet manager, yet this node's port stays Initializing (the
#   link is up but no SM has configured it: no LID, nothing can be sent) or its own sminfo got
#   no answer. The SM exists, so the fault is between it and this port: the SM does not sweep
#   the port (its sweep stopped, the switch in between is not configured, a partition or
#   M_Key blocks it) or the node queried through a port that cannot reach it.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/man/sminfo.8.in
#   - ref: https://www.kernel.org/doc/Documentation/ABI/stable/sysfs-class-infiniband
# custom:
#   id: fleet-host-sees-no-sm
#   area: fleet
#   severity: error
#   confidence: medium
#   requires: [fleet_fabric_sm, fleet_fabric_host_ports]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: sminfo -C {{device}} -P {{port}}
#       note: on {{nodes}} - whether the master answers this port now
#     - command: ibstat {{device}} {{port}}
#       note: on {{nodes}} - State should reach Active with a LID within a sweep of the SM
#     - command: sminfo
#       note: "on a node that reaches the master - then check the master's log (opensm: /var/log/opensm.log) for this port's GUID {{port_guid}}"
package rdmadoctor.rules.fleet_host_sees_no_sm

import data.rdmadoctor.lib.fleet
import data.rdmadoctor.lib.fleet.fabric

# others(h, s) are the answers of other nodes than h in subnet s naming a MASTER.
others(h, s) := {m | some m in fabric.masters(s); m.host != h}

findings contains f if {
	some h in input.fabric.hosts
	some p in h.ports
	p.state == "Initializing"
	s := object.get(p, "subnet", "")
	s != ""
	ms := others(h.host, s)
	count(ms) > 0
	f := finding(h, p, ms, sprintf("is %s/%s: no SM has configured it", [p.state, object.get(p, "physical_state", "?")]), fleet.evidence(h, p, ["state"]))
}

# sminfo's query got no answer ("sminfo: iberror: query failed"); a tool that could not open
# the port ("can't open UMAD port") asked nothing and says nothing of the SM.
findings contains f if {
	some h in input.fabric.hosts
	r := [r | some r in object.get(h, "sm_refusals", []); contains(r.text, "query")][0]
	not answered(h.host)
	some p in h.ports
	p.state == "Active"
	s := object.get(p, "subnet", "")
	s != ""
	ms := others(h.host, s)
	count(ms) > 0
	f := finding(h, p, ms, sprintf("got no answer from sminfo: %q", [trim_space(r.text)]), [r])
}

answered(host) if {
	some v in input.fabric.sm_views
	v.host == host
}

finding(h, p, ms, what, ev) := {
	"nodes": [h.host],
	"subject": {"device": p.device, "port": p.port},
	"message": sprintf("%s %s port %d %s, while %s in its subnet reach the master SM %s", [
		h.host, p.device, p.port, what,
		concat(", ", sort({m.host | some m in ms})),
		concat("; ", [fabric.sm_note(g, ms) | some g in sort({m.sm_guid | some m in ms})]),
	]),
	"evidence": array.concat(ev, [fabric.sm_line(g, ms) | some g in sort({m.sm_guid | some m in ms})]),
	"vars": {"port_guid": object.get(p, "port_guid", "")},
}
