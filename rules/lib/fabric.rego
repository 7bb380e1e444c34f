# METADATA
# title: Fabric nodes and ports
# description: >-
#   Finding constructors for fabric nodes that are none of this host's RDMA devices (a switch,
#   another host's HCA) as fabric tools saw them: ibswinfo, ibdiagnet2, iblinkinfo, ibqueryerrors,
#   perfquery of a remote LID. The subject names the node by its GUID (node_guid, the identity)
#   and node description (node_description), and the port by its number. A fabric record joins a
#   local device only by its GUID (local_devices): never by a name or a LID alone.
# scope: package
package rdmadoctor.lib.fabric

import data.rdmadoctor.lib.counters
import data.rdmadoctor.lib.finding

# node_subject names a fabric node; unknown fields are left out.
node_subject(guid, desc) := finding.compact({"node_guid": guid, "node_description": desc})

# port_subject names port n of a fabric node.
port_subject(guid, desc, n) := object.union(node_subject(guid, desc), {"port": n})

# node is a finding about a whole fabric node (a switch chassis, a node's firmware).
node(guid, desc, msg, ev) := {
	"subject": node_subject(guid, desc),
	"message": msg,
	"evidence": ev,
}

# port is a finding about port n of a fabric node.
port(guid, desc, n, msg, ev) := {
	"subject": port_subject(guid, desc, n),
	"message": msg,
	"evidence": ev,
}

# name renders a fabric node for a message: "0xfc6a1c030091cf00 \"Quantum-2 Mellanox
# Technologies\"", or whichever of the two is known.
name(guid, desc) := sprintf("%s %q", [guid, desc]) if {
	guid != ""
	desc != ""
} else := guid if {
	guid != ""
} else := sprintf("%q", [desc])

# local_devices are the RDMA devices of this host whose node GUID is guid: the one positive
# join between a fabric record and a local device (empty when none has it).
local_devices(guid) := set() if {
	guid == ""
} else := {dev.name |
	some dev in input.devices
	object.get(dev, "node_guid", "") == guid
}

# ports_of_peer are the fabric ports whose far end is node guid (a CA's switch port), from an
# index built once per evaluation (OPA indexes the inner comprehension on g): a lookup that
# scanned every port would make a fabric of n ports cost n * n.
ports_of_peer(guid) := object.get(peer_index, guid, set())

peer_index := {g: ps |
	some g in {p.peer_guid | some p in input.fabric.ports; p.peer_guid}
	ps := {p | some p in input.fabric.ports; p.peer_guid == g}
}

# peer_note names the far end of fabric port p for a message: its own peer fields (a switch
# port of net_dump), or the one switch port that names p's node as its peer (a CA port of
# ibdiagnet2.pm). Empty when neither is known.
peer_note(p) := sprintf(" <-> %s port %s", [name(p.peer_guid, object.get(p, "peer_description", "")), object.get(p, "peer_label", "?")]) if {
	object.get(p, "peer_guid", "") != ""
} else := sprintf(" <-> %s port %d (%s)", [name(q.node_guid, object.get(q, "node_description", "")), q.port, object.get(q, "label", "")]) if {
	count(ports_of_peer(p.node_guid)) == 1
	some q in ports_of_peer(p.node_guid)
} else := ""

# peer_evidence is the line that names both ends of p's link.
peer_evidence(p) := [p.evidence.peer_guid] if {
	p.evidence.peer_guid
} else := [q.evidence.peer_guid] if {
	count(ports_of_peer(p.node_guid)) == 1
	some q in ports_of_peer(p.node_guid)
	q.evidence.peer_guid
} else := []

# port_name renders fabric port p: "switch 0xfc6a1c030091cf00 "Quantum-2 ..." port 12 (1/6/2)".
port_name(p) := sprintf("%s %s port %d%s", [kind(p), name(object.get(p, "node_guid", object.get(p, "port_guid", "")), object.get(p, "node_description", "")), p.port, label_note(p)])

kind(p) := "switch" if {
	p.node_type == "Switch"
} else := "CA" if {
	p.node_type == "CA"
} else := "node"

label_note(p) := sprintf(" (%s)", [p.label]) if {
	object.get(p, "label", "") != ""
} else := ""

# fabric_port_finding is a finding about fabric port p: this host's device port when p's node
# GUID is one of this host's devices (positive join), else the fabric node's port.
port_finding(p, msg, ev) := finding.port(dev, dp, msg, ev) if {
	some devname in local_devices(object.get(p, "node_guid", ""))
	some dev in input.devices
	dev.name == devname
	some dp in dev.ports
	dp.number == p.port
} else := port(object.get(p, "node_guid", object.get(p, "port_guid", "")), object.get(p, "node_description", ""), p.port, msg, ev)

# counter_findings judges the PortCounters of every fabric port (ibdiagnet2.pm, with the
# increase between ibdiagnet's two reads from db_csv PM_DELTA) against thresholds, {name: [limit
# for an increase over the sample, limit for the value since last clear]} as lib/counters has
# them (rdma-core infiniband-diags/etc/error_thresholds). A count that rose during the sample
# is the rule's finding at medium confidence; a count over its threshold that did not rise is
# history (since the counters were last cleared: peer reboots count too), reported as info; a
# count without a sample is the rule's finding at low confidence.
counter_findings(thresholds) := {f |
	some p in input.fabric.ports
	p.port > 0
	some name, limits in thresholds
	r := reading(p, name, limits)
	f := finding.with_fields(
		port_finding(p, sprintf("%s%s: %s %s", [port_name(p), peer_note(p), name, r.text]), array.concat(r.evidence, peer_evidence(p))),
		r.grade,
	)
}

# reading is the verdict on counter name of p, undefined when it is within its thresholds.
reading(p, name, limits) := {"text": text, "evidence": ev, "grade": {"confidence": "medium"}} if {
	d := p.counter_deltas[name]
	d > limits[0]
	text := sprintf("+%d during ibdiagnet's counter sample (%v since last clear)", [d, object.get(p.counters, name, "?")])
	ev := [e | some k in [concat(".", ["counter_deltas", name]), concat(".", ["counters", name])]; e := p.evidence[k]]
} else := {"text": text, "evidence": ev, "grade": {"severity": "info", "confidence": "low"}} if {
	v := p.counters[name]
	v > limits[1]
	is_number(p.counter_deltas[name])
	text := sprintf("%s since last clear, not rising during ibdiagnet's counter sample (history: peer reboots and past faults count)", [value_text(name, v)])
	ev := [e | e := p.evidence[concat(".", ["counters", name])]]
} else := {"text": text, "evidence": ev, "grade": {"confidence": "low"}} if {
	v := p.counters[name]
	v > limits[1]
	not p.counter_deltas[name]
	text := sprintf("%s since last clear", [value_text(name, v)])
	ev := [e | e := p.evidence[concat(".", ["counters", name])]]
}

value_text(name, v) := sprintf(">= %d (counter saturated)", [v]) if {
	v >= counters.saturation[name]
} else := sprintf("%d", [v])

# link_peer is the fabric port at the other end of p's link: for a port without peer fields (a
# CA port of db_csv or pm) the one port that names p's node as its peer; else the port of p's
# peer node that names p's node back (and p's peer label, when several do).
link_peer(p) := q if {
	object.get(p, "peer_guid", "") == ""
	count(ports_of_peer(p.node_guid)) == 1 # a CA port: the one switch port that names its node
	some q in ports_of_peer(p.node_guid)
} else := q if {
	qs := [q |
		some q in ports_by_node(p.peer_guid)
		object.get(q, "peer_guid", p.node_guid) == p.node_guid
		label_matches(p, q)
	]
	count(qs) == 1
	q := qs[0]
}

label_matches(p, q) if object.get(q, "label", "") == object.get(p, "peer_label", "")

label_matches(p, q) if to_number(object.get(p, "peer_label", "")) == q.port

label_matches(_, q) if {
	q.node_type == "CA"
	count(ports_by_node(q.node_guid)) == 1
}

# ports_by_node are the fabric ports of node guid (indexed like ports_of_peer).
ports_by_node(guid) := object.get(node_index, guid, set())

node_index := {g: ps |
	some g in {p.node_guid | some p in input.fabric.ports; p.node_guid}
	ps := {p | some p in input.fabric.ports; p.node_guid == g}
}

# width_findings are the Active fabric ports (ibdiagnet2) that trained narrower than both ends
# allow: the widest width enabled on the port and on its peer (db_csv PORTS LinkWidthEn, so a
# split 2x port is 2x by design); without enabled widths a 1x link alone is judged (a failed
# lane), at medium confidence, and a 2x one is not (HDR100/NDR200 splits are 2x by design).
width_findings contains f if {
	some p in input.fabric.ports
	p.port > 0
	p.state == "Active"
	w := p.width_lanes
	is_number(w)
	full := widest(p)
	w < full.lanes
	base := port_finding(
		p,
		sprintf("%s%s is Active at %dX while %s allow %dX", [port_name(p), peer_note(p), w, full.who, full.lanes]),
		array.concat([e | some k in ["width_lanes", "enabled_widths"]; e := p.evidence[k]], peer_evidence(p)),
	)
	f := finding.with_fields(base, full.grade)
}

widest(p) := {"lanes": max(common), "who": "both ends", "grade": {}} if {
	q := link_peer(p)
	common := {x | some x in p.enabled_widths} & {x | some x in q.enabled_widths}
	count(common) > 0
} else := {"lanes": max({x | some x in p.enabled_widths}), "who": "the port's enabled widths", "grade": {"confidence": "medium"}} if {
	count(object.get(p, "enabled_widths", [])) > 0
} else := {"lanes": 4, "who": "a 4X-capable port (a 1X link is a failed lane)", "grade": {"confidence": "medium"}} if {
	p.width_lanes == 1
}

# speed_findings are the Active links iblinkinfo says could run faster ("( Could be 53.125
# Gbps)", printed only when both ends support more, rdma-core iblinkinfo.c get_max_msg), about
# the port the line belongs to (a switch port, or another host's HCA). A link whose far end is
# one of this host's Active ports by LID is left to the host's own findings.
speed_findings contains f if {
	some l in input.fabric.links
	l.state == "Active"
	could := object.get(l, "could_be", "")
	contains(could, "Gbps")
	not local_lid(l.peer_lid)
	guid := object.get(l, "node_guid", object.get(l, "port_guid", ""))
	desc := object.get(l, "node_description", "")
	base := port(
		guid, desc, l.port,
		sprintf("%s port %d (LID %v) <-> %q (LID %v port %v) runs %vX %v Gb/s per lane; iblinkinfo: %s", [name(guid, desc), l.port, l.lid, object.get(l, "peer_description", ""), l.peer_lid, l.peer_port, l.width_lanes, l.speed_gbps, could]),
		[l.evidence],
	)
	f := finding.with_fields(base, {"confidence": "high"}) # iblinkinfo compared both ends
}

local_lid(lid) if {
	is_number(lid)
	some dev in input.devices
	some p in dev.ports
	p.lid == lid
	p.state == "Active"
}
