# METADATA
# title: A node's port runs slower or narrower than its peers of the same model
# description: >-
#   An Active port of an adapter model (CA type) runs at a lower rate than the same model's
#   Active ports do on most nodes of the fleet: a link that trained at fewer lanes (2X or 1X of a
#   4X port) or a slower lane speed (HDR of an NDR port), through a damaged cable, a dirty or
#   mismatched module, or a switch port set to less. Jobs spanning that node run at its speed.
#   Ports are compared by CA type and link layer with the rate on most nodes; when no rate is on
#   more nodes than every other (an even split), with the fastest rate the peers' ports of the
#   model run at, with low confidence, and the message says so. A profile that sets
#   expected_rate_gbps states the intent instead: each node's rdma-port-count-below-expected then
#   judges its ports against it, and this comparison stays silent. Ports that are not Active are
#   the job of fleet-active-ports-below-peers.
# scope: package
# related_resources:
#   - ref: https://www.kernel.org/doc/Documentation/ABI/stable/sysfs-class-infiniband
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/man/ibstat.8.in.rst
# custom:
#   id: fleet-port-rate-below-peers
#   area: fleet
#   severity: error
#   confidence: medium
#   requires: [nodes_port_rates]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: mlxlink -d {{pci}} -p {{port}} -m -c
#       note: on {{nodes}} - the trained speed and width, the enabled speeds, the cable and its errors
#       when: {vendor: Mellanox}
#     - command: ibportstate -C {{device}} -P {{port}} reset
#       note: on {{nodes}} - retrain the link (InfiniBand); reseat or replace the cable or module when it comes back at {{rate}}
package rdmadoctor.rules.fleet_port_rate_below_peers

import data.rdmadoctor.lib.fleet

# ports are the Active ports with a rate, by node, device and port index, with their comparison
# key. The aggregates below are complete rules, computed once per evaluation.
ports := [{"i": i, "j": j, "k": x, "key": [dev.ca_type, object.get(p, "link_layer", "")], "rate": p.rate_gbps} |
	some i, node in input.nodes
	some j, dev in node.devices
	dev.ca_type
	some x, p in dev.ports
	p.state == "Active"
	p.rate_gbps != null
]

keys := {e.key | some e in ports}

# hosts[key][rate] are the nodes with an Active port of key at rate.
hosts := {key: {r: {input.nodes[e.i].host | some e in ports; e.key == key; e.rate == r} |
	some r in {e.rate | some e in ports; e.key == key}
} |
	some key in keys
}

# want[key] is the rate most nodes' ports of key run at.
want := {key: r | some key, by in hosts; r := fleet.majority({r: count(hs) | some r, hs in by})}

# best[key] is the highest rate ports of key run at, for the keys with no rate on more nodes
# than every other: the reference of the comparison then.
best := {key: max(object.keys(by)) | some key, by in hosts; not want[key]}

# peer[key] is the first port (by host, device, port) of key at its reference rate: the
# majority's, else the best.
peer := {key: sort([[input.nodes[e.i].host, e.j, e.k, e] |
	some e in ports
	e.key == key
	e.rate == r
])[0][3] |
	some key, r in object.union(want, best)
}

# shape is "200 Gb/s (4X HDR)", with what the port record has.
shape(p) := sprintf("%v Gb/s (%s)", [p.rate_gbps, trim_space(sprintf("%s %s", [width(p), object.get(p, "lane_speed", "")]))]) if {
	width(p) != ""
} else := sprintf("%v Gb/s (%s)", [p.rate_gbps, p.lane_speed]) if {
	p.lane_speed
} else := sprintf("%v Gb/s", [p.rate_gbps])

width(p) := sprintf("%dX", [p.width_lanes]) if p.width_lanes != null

else := ""

why(p, q) := "fewer lanes" if {
	p.width_lanes != null
	q.width_lanes != null
	p.width_lanes < q.width_lanes
} else := "a slower lane speed" if {
	p.lane_speed
	q.lane_speed
	p.lane_speed != q.lane_speed
} else := "a lower rate"

findings contains f if {
	not input.profile.expected_rate_gbps
	some e in ports
	w := want[e.key]
	e.rate < w
	node := input.nodes[e.i]
	dev := node.devices[e.j]
	p := dev.ports[e.k]
	q := peer[e.key]
	qnode := input.nodes[q.i]
	qp := qnode.devices[q.j].ports[q.k]
	n := count(hosts[e.key][w] - {node.host})
	f := {
		"nodes": [node.host],
		"subject": fleet.port_subject(dev, p.number),
		"message": sprintf("%s %s port %d runs %s while %d %s' %s ports run %s: %s", [
			node.host, fleet.label(dev), p.number, shape(p), n, fleet.nodes_word(n),
			dev.ca_type, shape(qp), why(p, qp),
		]),
		"evidence": array.concat(
			fleet.evidence(node, p, ["rate_gbps", "width_lanes", "lane_speed"]),
			fleet.evidence(qnode, qp, ["rate_gbps"]),
		),
		"vars": {"rate": shape(qp)},
	}
}

# no rate on more nodes than every other: a port below the best rate its peers' ports of the
# model run at, with low confidence, saying so.
findings contains f if {
	not input.profile.expected_rate_gbps
	some e in ports
	w := best[e.key]
	e.rate < w
	node := input.nodes[e.i]
	dev := node.devices[e.j]
	p := dev.ports[e.k]
	q := peer[e.key]
	qnode := input.nodes[q.i]
	qp := qnode.devices[q.j].ports[q.k]
	hs := hosts[e.key][w] - {node.host}
	count(hs) > 0
	f := {
		"nodes": [node.host],
		"subject": fleet.port_subject(dev, p.number),
		"message": sprintf("%s %s port %d runs %s while %s %s ports run %s, the fastest of its peers (no rate is on more nodes than every other: %s): %s", [
			node.host, fleet.label(dev), p.number, shape(p), fleet.whose(hs),
			dev.ca_type, shape(qp), fleet.split({sprintf("%v Gb/s", [r]): ns | some r, ns in hosts[e.key]}), why(p, qp),
		]),
		"evidence": array.concat(
			fleet.evidence(node, p, ["rate_gbps", "width_lanes", "lane_speed"]),
			fleet.evidence(qnode, qp, ["rate_gbps"]),
		),
		"confidence": "low",
		"vars": {"rate": shape(qp)},
	}
}
