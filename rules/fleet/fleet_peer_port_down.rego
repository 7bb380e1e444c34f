# METADATA
# title: The switch port a node is cabled to is Down in another node's capture
# description: >-
#   A node's HCA port is cabled to a switch port (a fabric capture shows the link), and a capture
#   of another node of the fleet shows that switch port Down (Polling, Disabled). When the node's
#   own port is not Active either, the link is down at both ends: the cable, a module, or a
#   switch port that was disabled. When the node's port is Active, the captures were taken at
#   different times and the link was down at one of them: it went down and came back, or flaps.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/man/iblinkinfo.8.in
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/man/ibportstate.8.in
# custom:
#   id: fleet-peer-port-down
#   area: fleet
#   severity: warning
#   confidence: medium
#   requires: [fleet_fabric_host_ports, fleet_fabric_links]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ibportstate -G {{switch_guid}} {{switch_port}} query
#       note: the switch port's state now; a Disabled port is enabled with ibportstate -G {{switch_guid}} {{switch_port}} enable
#     - command: ibstat {{device}} {{port}}
#       note: on {{nodes}} - the HCA end's state and physical state
#     - command: perfquery -x -G {{switch_guid}} {{switch_port}}
#       note: link_downed and link_error_recovery of the switch port - a count that keeps rising is a flapping link (reseat or replace the cable)
package rdmadoctor.rules.fleet_peer_port_down

import data.rdmadoctor.lib.fleet
import data.rdmadoctor.lib.fleet.fabric

down_states := {"Down"}

findings contains f if {
	some h in input.fabric.hosts
	some p in h.ports
	q := fabric.ports[p.peer]
	q.node_type == "Switch"
	v := [v |
		some v in q.views
		v.host != h.host
		v.state in down_states
	][0]
	base := {
		"nodes": [h.host],
		"subject": {"device": p.device, "port": p.port},
		"message": sprintf("%s %s port %d (%s) is cabled to %s, which %s's capture shows %s/%s%s", [
			h.host, p.device, p.port, own_state(p), fabric.name(q), v.host, v.state, object.get(v, "physical_state", "?"), verdict(p),
		]),
		"evidence": array.concat(fleet.evidence(h, p, ["state", "physical_state"]), [e | some e in [v.evidence.state]]),
		"vars": {"switch_guid": q.node_guid, "switch_port": q.port},
	}
	f := object.union(base, grade(p))
}

own_state(p) := sprintf("%s/%s", [object.get(p, "state", "?"), object.get(p, "physical_state", "?")])

verdict(p) := ": the link was down when one of the captures was taken (it went down and came back, or flaps)" if {
	p.state == "Active"
} else := ": the link is down at both ends - the cable, a module, or a disabled switch port"

grade(p) := {} if p.state == "Active"

else := {"severity": "error"}
