# METADATA
# title: One end of a cable receives errors, the other end none
# description: >-
#   A port counts errors in what it receives (symbol errors, receive errors, local link
#   integrity errors over rdma-core's thresholds) while the port at the other end of its cable,
#   read by a capture of the fleet, counts none: the fault is in one direction, the receive path
#   into the erring port - its port or module, or the transmitter at the far end - not the
#   whole cable. The finding names both ports with their node descriptions and the host whose
#   HCA port it is. A port whose counters no capture read is unknown, never clean, so this is not
#   reported for it. Counts that rose during ibdiagnet's counter sample are a fault now; counts
#   since the counters were last cleared that did not rise are history and reported as info.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/etc/error_thresholds
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/man/perfquery.8.in
# custom:
#   id: fleet-link-errors-one-end
#   area: fleet
#   severity: warning
#   confidence: medium
#   requires: [fleet_fabric_links, fleet_fabric_counters]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: mlxlink -d {{hca_device}} -p {{hca_port}} -m -c -e
#       note: on {{nodes}} - the HCA end's module, per-lane BER and its counters; reseat or clean the module at the erring end first
#       when: {vendor: Mellanox}
#     - command: perfquery -x -G {{switch_guid}} {{switch_port}}
#       note: the switch end's counters now; swap the cable ends or move it to another switch port - errors that follow the cable are the cable, errors that stay are the port or module
#     - command: perfquery -x -R -C {{hca_device}} -P {{hca_port}}
#       note: clear the counters after the repair, then capture again to confirm they stay flat
package rdmadoctor.rules.fleet_link_errors_one_end

import data.rdmadoctor.lib.fleet.fabric

findings contains f if {
	some l in input.fabric.links
	some pair in [[l.a, l.b], [l.b, l.a]]
	bad := fabric.ports[pair[0]]
	other := fabric.ports[pair[1]]
	rs := fabric.readings(bad)
	count(rs) > 0
	fabric.clean(other)
	base := {
		"nodes": fabric.hosts([bad, other]),
		"subject": fabric.subject(bad),
		"message": sprintf("%s%s receives errors (%s) while %s%s at the other end of its cable counts none: the receive path into %s - its port or module, or the far end's transmitter", [
			fabric.name(bad), fabric.host_note(bad), fabric.describe(rs),
			fabric.name(other), fabric.host_note(other), fabric.name(bad),
		]),
		"evidence": array.concat(array.concat(fabric.evidence(rs), clean_evidence(other)), array.slice(l.evidence, 0, 1)),
		"vars": fabric.link_vars([bad, other]),
	}
	f := object.union(base, fabric.grade(rs))
}

# clean_evidence is the line of the clean end's first view that read its counters (ibdiagnet2.pm
# "Port=1 Lid=0x0007 GUID=..." heading: a zero counter has no line of its own).
clean_evidence(p) := [e |
	v := [w |
		some w in p.views
		every name, _ in fabric.receive_thresholds {
			is_number(w.counters[name])
		}
	][0]
	some k in ["port", "counters.symbol_error"]
	e := v.evidence[k]
]
