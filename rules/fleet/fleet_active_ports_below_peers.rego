# METADATA
# title: A node has fewer Active ports than its peers of the same model
# description: >-
#   Most nodes of the fleet have N Active ports on their adapters of one model (CA type), and
#   this node has fewer: a rail is down, unplugged or not trained, and every multi-node job that
#   spans the node slows down or fails. Nodes are compared per CA type with the count most of
#   them have; when no count is on more nodes than every other (an even split), with the most
#   Active ports a peer has, with low confidence, and the message says so. The ports of the
#   model that are not Active on the node are quoted. A profile that
#   sets expected_active_ports states the intent instead: each node's
#   rdma-port-count-below-expected then judges it, and this comparison stays silent. A node whose
#   port listing was cut short (a partial ibstat) may list fewer ports: its own report says so.
# scope: package
# related_resources:
#   - ref: https://github.com/Azure/azurehpc-health-checks
#   - ref: https://www.kernel.org/doc/Documentation/ABI/stable/sysfs-class-infiniband
# custom:
#   id: fleet-active-ports-below-peers
#   area: fleet
#   severity: error
#   confidence: medium
#   requires: [nodes_ports]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ibstat
#       note: on {{nodes}} - which {{ca_type}} ports are not Active; that node's own diagnoses (port-physical-link-down, ib-port-no-subnet-manager, ...) say why
#     - command: ibdev2netdev -v
#       note: match the ports to the peers' by PCI address or GUID, not by name - udev may name the same rail differently per node
package rdmadoctor.rules.fleet_active_ports_below_peers

import data.rdmadoctor.lib.fleet

# listed are the nodes (by index) and CA types with at least one port state, with the count of
# Active ports of that type. The aggregates are complete rules, computed once per evaluation.
listed := {[i, t, active(node, t)] |
	some i, node in input.nodes
	some dev in node.devices
	t := dev.ca_type
	some p in dev.ports
	p.state
}

# active(node, t) counts the node's Active ports of CA type t.
active(node, t) := count([p |
	some dev in node.devices
	dev.ca_type == t
	some p in dev.ports
	p.state == "Active"
])

# counts[t][n] is how many nodes have n Active ports of CA type t.
counts := {t: {n: count({i | some [i, t2, n2] in listed; t2 == t; n2 == n}) |
	some n in {n3 | some [_, t3, n3] in listed; t3 == t}
} |
	some t in {t4 | some [_, t4, _] in listed}
}

want := {t: n | some t, cs in counts; n := fleet.majority(cs)}

findings contains f if {
	not input.profile.expected_active_ports
	some [i, t, have] in listed
	w := want[t]
	have < w
	node := input.nodes[i]
	n := counts[t][w]
	f := {
		"nodes": [node.host],
		"subject": {},
		"message": sprintf("%s has %d Active %s port%s while %d %s have %d", [
			node.host, have, t, plural(have), n, fleet.nodes_word(n), w,
		]),
		"evidence": down(node, t),
		"vars": {"ca_type": t},
	}
}

# down are the evidence lines of the node's ports of CA type t that are not Active.
down(node, t) := [e |
	some dev in node.devices
	dev.ca_type == t
	some p in dev.ports
	p.state
	p.state != "Active"
	some e in fleet.evidence(node, p, ["state", "physical_state"])
]

have_word := {true: "has", false: "have"}

plural(1) := ""

plural(n) := "s" if n != 1

# no count on more nodes than every other: a node below the most Active ports its peers have of
# the model, with low confidence, saying so.
findings contains f if {
	not input.profile.expected_active_ports
	some t, cs in counts
	not want[t]
	w := max(object.keys(cs))
	some [i, t2, have] in listed
	t2 == t
	have < w
	node := input.nodes[i]
	top := tie_by[t][sprintf("%d Active", [w])]
	f := {
		"nodes": [node.host],
		"subject": {},
		"message": sprintf("%s has %d Active %s port%s while %s %s %d, the most of its peers (no count is on more nodes than every other: %s)", [
			node.host, have, t, plural(have), fleet.on(top), have_word[count(top) == 1], w, tie_split[t],
		]),
		"evidence": down(node, t),
		"confidence": "low",
		"vars": {"ca_type": t},
	}
}

# tie_by[t] is, for the CA types with no count on more nodes than every other, each count shown
# ("8 Active") with the hosts that have it; tie_split[t] its description. Complete rules, so
# both are computed once per type, not once per node below the best (a fleet of 10,000).
tie_by[t] := {sprintf("%d Active", [c]): {input.nodes[j].host | some [j, t3, c2] in listed; t3 == t; c2 == c} |
	some c, _ in cs
} if {
	some t, cs in counts
	not want[t]
}

tie_split[t] := fleet.split(by) if some t, by in tie_by
