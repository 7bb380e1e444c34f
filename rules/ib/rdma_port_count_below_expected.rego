# METADATA
# title: Fewer healthy RDMA ports than the node should have
# description: >-
#   The site profile says how many RDMA ports this node should have Active (expected_active_ports)
#   and at what rate (expected_rate_gbps), and fewer ports meet that: a rail is down or slow. On GPU
#   nodes with one rail per GPU every multi-node job then slows down or fails. The per-port rules
#   (link down, width or speed degraded, module faults) say why a port is missing. Without a
#   profile this is not evaluated.
# scope: package
# related_resources:
#   - ref: https://github.com/Azure/azurehpc-health-checks
#   - ref: https://github.com/mej/nhc
#   - ref: https://github.com/leptonai/gpud
# custom:
#   id: rdma-port-count-below-expected
#   area: ib
#   severity: error
#   confidence: high
#   requires: [ib_ports]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ibstat
#       note: find the ports that are not Active or run below the expected rate; the per-port diagnoses above give the cause
#     - command: ibdev2netdev -v
#       note: match ports by PCI address or GUID, not by name - udev may name the same rail differently per node
package rdmadoctor.rules.rdma_port_count_below_expected

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.intent

# ports the inventory counts: physical functions, the profile's fabric, not marked unused.
ports := [[d, p] |
	some d in input.devices
	not hca.is_vf(d)
	object.get(d, "capture", "") == ""
	some p in d.ports
	fabric_matches(p)
	not intent.unused(d, p)
]

fabric_matches(_) if object.get(input.profile, "fabric", "") == ""

fabric_matches(p) if {
	intent.norm(input.profile.fabric) == "ib"
	p.link_layer == "InfiniBand"
}

fabric_matches(p) if {
	intent.norm(input.profile.fabric) == "ethernet"
	p.link_layer == "Ethernet"
}

good(p) if {
	p.state == "Active"
	not slow(p)
}

slow(p) if {
	want := input.profile.expected_rate_gbps
	is_number(want)
	not p.rate_gbps >= want
}

label(dp) := sprintf("%s/%d %s%s", [dp[0].name, dp[1].number, object.get(dp[1], "state", "?"), rate(dp[1])])

rate(p) := sprintf(" %v Gb/s", [p.rate_gbps]) if {
	p.state == "Active"
	is_number(p.rate_gbps)
} else := ""

bad := [dp | some dp in ports; not good(dp[1])]

healthy := [dp | some dp in ports; good(dp[1])]

rate_note := sprintf(" at >= %v Gb/s", [input.profile.expected_rate_gbps]) if is_number(input.profile.expected_rate_gbps)

else := ""

# Fewer ports than expected are Active at the expected rate.
findings contains f if {
	want := input.profile.expected_active_ports
	is_number(want)
	count(healthy) < want
	f := finding.node(
		sprintf("%d of the expected %d RDMA ports are Active%s%s", [count(healthy), want, rate_note, bad_note]),
		[e | some dp in bad; some e in finding.evidence(dp[1], ["state", "rate_gbps"])],
	)
}

# Only a rate is expected: Active ports run below it.
findings contains f if {
	not count_expected
	is_number(input.profile.expected_rate_gbps)
	slow_active := [dp | some dp in ports; dp[1].state == "Active"; slow(dp[1])]
	count(slow_active) > 0
	f := finding.node(
		sprintf("%d Active RDMA ports run below the expected %v Gb/s: %s", [count(slow_active), input.profile.expected_rate_gbps, concat(", ", sort([label(dp) | some dp in slow_active]))]),
		[e | some dp in slow_active; some e in finding.evidence(dp[1], ["rate_gbps"])],
	)
}

count_expected if is_number(input.profile.expected_active_ports)

bad_note := sprintf("; not counted: %s", [concat(", ", sort([label(dp) | some dp in bad]))]) if count(bad) > 0

else := ""
