# METADATA
# title: Both ends of one cable receive errors
# description: >-
#   The ports at both ends of one link count errors in what they receive (symbol errors, receive
#   errors, local link integrity errors over rdma-core's thresholds), as the fleet's fabric
#   captures (ibdiagnet2.pm, ibqueryerrors, perfquery) show them: the signal is corrupted in both
#   directions, which points at what both directions share, the cable (or both of its modules),
#   not at one port. Counters that rose during ibdiagnet's counter sample are a fault now; counts
#   since the counters were last cleared that did not rise are history (past faults, reseats and
#   peer reboots count too) and are reported as info.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/etc/error_thresholds
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/man/ibqueryerrors.8.in
# custom:
#   id: fleet-link-errors-both-ends
#   area: fleet
#   severity: error
#   confidence: medium
#   requires: [fleet_fabric_links, fleet_fabric_counters]
#   explains: [fleet-link-errors-one-end]
#   needs_reboot: false
#   fix:
#     - command: perfquery -x -G {{switch_guid}} {{switch_port}}
#       note: the switch end's counters now (run twice a minute apart); rising at both ends means the cable
#     - command: mlxlink -d {{hca_device}} -p {{hca_port}} -c -e
#       note: on {{nodes}} - the HCA end's raw and effective BER per lane; then replace the cable (both modules, for an optical cable)
#       when: {vendor: Mellanox}
#     - command: perfquery -x -R -C {{hca_device}} -P {{hca_port}}
#       note: clear the counters at both ends after the repair, then capture again to confirm they stay flat
package rdmadoctor.rules.fleet_link_errors_both_ends

import data.rdmadoctor.lib.fleet.fabric

findings contains f if {
	some l in input.fabric.links
	ends := fabric.switch_first(l)
	ra := fabric.readings(ends[0])
	count(ra) > 0
	rb := fabric.readings(ends[1])
	count(rb) > 0
	base := {
		"nodes": fabric.hosts(ends),
		"subject": fabric.subject(ends[0]),
		"message": sprintf("both ends of one cable receive errors: %s%s: %s; %s%s: %s: the cable (or both of its modules) corrupts the signal in both directions", [
			fabric.name(ends[0]), fabric.host_note(ends[0]), fabric.describe(ra),
			fabric.name(ends[1]), fabric.host_note(ends[1]), fabric.describe(rb),
		]),
		"evidence": array.concat(array.concat(fabric.evidence(ra), fabric.evidence(rb)), array.slice(l.evidence, 0, 1)),
		"vars": fabric.link_vars(ends),
	}
	f := object.union(base, fabric.grade(ra | rb))
}
