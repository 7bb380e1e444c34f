# METADATA
# title: Fleet fabric helpers
# description: >-
#   Helpers of the fleet rules about the merged fabric (input.fabric, facts.FleetFabric, built
#   by facts/fabricview): ports by ID, each end of a link with its views, the PortCounters of a
#   port that count errors in what it received, judged against rdma-core's thresholds
#   (infiniband-diags/etc/error_thresholds, as rules/counters use them), and names for people.
#   Every evidence entry of the fabric carries its host but a host's own ports' (hosts[].ports[],
#   the host's lines: fleet.evidence(h, p, fields) adds h.host, as for a node summary).
# scope: package
package rdmadoctor.lib.fleet.fabric

# ports are the fabric's ports by ID.
ports := {p.id: p | some p in input.fabric.ports}

# receive_thresholds are the counters a port raises for errors in what it received, {name:
# [limit for an increase during ibdiagnet's sample, limit for the value since last clear]}:
# rules/data/receive_thresholds.yaml (rdma-core's error_thresholds), the table the fleet
# report's fabric part judges links by too.
receive_thresholds := data.data.receive_thresholds

# readings are the receive-error counters of port p over their thresholds in any view: {name,
# value, delta (null without a sample), rising, host, evidence}.
readings(p) := {r |
	some v in p.views
	some name, limits in receive_thresholds
	r := reading(v, name, limits)
}

reading(v, name, limits) := {"name": name, "value": object.get(v.counters, name, null), "delta": d, "rising": true, "host": v.host, "evidence": ev} if {
	d := v.counter_deltas[name]
	d > limits[0]
	ev := [e | some k in [concat(".", ["counter_deltas", name]), concat(".", ["counters", name])]; e := v.evidence[k]]
} else := {"name": name, "value": c, "delta": object.get(object.get(v, "counter_deltas", {}), name, null), "rising": false, "host": v.host, "evidence": ev} if {
	c := v.counters[name]
	c > limits[1]
	ev := [e | e := v.evidence[concat(".", ["counters", name])]]
}

# clean holds when some view of p read every receive-error counter and none is over its
# threshold, and no view shows one over it: a port whose counters no capture read is unknown,
# never clean.
clean(p) if {
	count(readings(p)) == 0
	some v in p.views
	every name, _ in receive_thresholds {
		is_number(v.counters[name])
	}
}

# grade is a finding's severity and confidence for readings rs: the rule's own when a count
# rose during the sample (the fault is there now), info at low confidence for history alone.
grade(rs) := {} if {
	rising(rs)
} else := {"severity": "info", "confidence": "low"}

# rising holds when a reading of rs rose during ibdiagnet's sample.
rising(rs) if {
	some r in rs
	r.rising
}

# describe renders readings for a message: "symbol_error 23817 since last clear", "+12 during
# the sample (140 since last clear)", sorted by name.
describe(rs) := concat(", ", sort([text(r) | some r in rs]))

text(r) := sprintf("%s +%d during ibdiagnet's sample (%v since last clear, seen by %s)", [r.name, r.delta, r.value, r.host]) if {
	r.rising
} else := sprintf("%s %d since last clear (seen by %s)", [r.name, r.value, r.host])

# evidence are the lines of readings, in name order.
evidence(rs) := [e |
	some r in sort_readings(rs)
	some e in r.evidence
]

sort_readings(rs) := [r | some k in sort([[r.name, r.host] | some r in rs]); some r in rs; [r.name, r.host] == k]

# name renders a port for people: `switch 0xfc6a1c030091f600 "Quantum-2 Mellanox
# Technologies" port 5 (1/3/1)`, `CA "node05 mlx5_3" port 1 (0x5c25730300c09c50)`.
name(p) := sprintf("switch %s %q port %d%s", [p.node_guid, object.get(p, "node_description", ""), p.port, label(p)]) if {
	p.node_type == "Switch"
} else := sprintf("CA %q port %d (%s)", [object.get(p, "node_description", ""), p.port, guid(p)]) if {
	object.get(p, "node_description", "") != ""
} else := sprintf("port %s", [p.id])

label(p) := sprintf(" (%s)", [p.label]) if p.label

else := ""

guid(p) := p.port_guid if p.port_guid

else := p.node_guid

# host_note says whose HCA port p is: " (node05's mlx5_3 port 1)", or "" when no host of the
# fleet owns it.
host_note(p) := sprintf(" (%s's %s port %d)", [hp.host, hp.port.device, hp.port.port]) if {
	hp := host_ports(p)[0]
} else := ""

# host_ports are the host ports mapped to fabric port p, each {host, port}.
host_ports(p) := [{"host": h.host, "port": hp} |
	some h in input.fabric.hosts
	some hp in h.ports
	object.get(hp, "fabric_port", "") == p.id
] # hosts and their ports are sorted: the first is the lowest host label

# hosts names the fleet nodes a finding about ports ps is for: the nodes whose HCA ports they
# are, else the nodes whose captures showed them.
hosts(ps) := sort(owners) if {
	owners := {h | some p in ps; some h in object.get(p, "hosts", [])}
	count(owners) > 0
} else := sort({v.host | some p in ps; some v in p.views})

# subject is the finding subject of port p: a host's device port when a host owns it, else
# the fabric node's port.
subject(p) := {"device": hp.port.device, "port": hp.port.port} if {
	hp := host_ports(p)[0]
} else := {k: v | some k, v in {"node_guid": p.node_guid, "node_description": object.get(p, "node_description", ""), "port": p.port}; v != ""}

# switch_first is a link's two ports with the switch's first (where a cable is swapped and a
# switch port is cleared), else as the link has them.
switch_first(l) := [ports[l.b], ports[l.a]] if {
	ports[l.b].node_type == "Switch"
	ports[l.a].node_type != "Switch"
} else := [ports[l.a], ports[l.b]]

# link_vars are the fix placeholders of a link's two ends: the switch end's GUID and port, the
# HCA end's device and port on its host.
link_vars(ends) := object.union(switch_vars(ends), hca_vars(ends))

switch_vars(ends) := {"switch_guid": p.node_guid, "switch_port": p.port} if {
	p := [q | some q in ends; q.node_type == "Switch"][0]
} else := {}

hca_vars(ends) := {"hca_device": hp.port.device, "hca_port": hp.port.port} if {
	hp := [h | some p in ends; some h in host_ports(p)][0]
} else := {}

# masters are the sminfo answers of subnet s in which an SM is MASTER.
masters(s) := {v |
	some v in input.fabric.sm_views
	v.subnet == s
	v.state == "SMINFO_MASTER"
}

# sm_subnets are the subnets some sminfo answer was placed in.
sm_subnets := {v.subnet | some v in input.fabric.sm_views; object.get(v, "subnet", "") != ""}

# sm_note renders the SM of guid among answers vs: "0x... (lid 180, priority 12; seen by node01,
# node02)".
sm_note(guid, vs) := sprintf("%s (lid %v, priority %v; seen by %s)", [guid, m.sm_lid, m.priority, concat(", ", sort({v.host | some v in vs; v.sm_guid == guid}))]) if {
	m := [v | some v in vs; v.sm_guid == guid][0]
}

# sm_line is the first answer's line of the SM of guid among vs.
sm_line(guid, vs) := sort([v.evidence | some v in vs; v.sm_guid == guid])[0]
