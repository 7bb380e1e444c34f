# METADATA
# title: A node's adapter port is configured for another link type than its peers
# description: >-
#   The LINK_TYPE_P<n> firmware setting (mstconfig/mlxconfig: IB, ETH or VPI) of an adapter
#   differs from the same setting of the same model (PSID, else device type) on most nodes of
#   the fleet. The port then comes up as InfiniBand where its peers run Ethernet or the reverse:
#   it never links to the switch its peers are cabled to, or joins the wrong fabric. The
#   configured (next boot) value is compared; a query filtered so that it could not show the
#   setting is not compared. When no value is on more nodes than every other (an even split),
#   there is no odd one out: each value is reported with its nodes, with low confidence.
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/networking/display/mftv4341lts/using-mlxconfig
#   - ref: https://github.com/Mellanox/mstflint
# custom:
#   id: fleet-link-type-drift
#   area: fleet
#   severity: error
#   confidence: medium
#   requires: [nodes_link_type]
#   explains: []
#   needs_reboot: true
#   fix:
#     - command: mstconfig -d {{pci}} query {{param}}
#       note: on {{nodes}} - the configured link type; the peers have {{param}} {{value}}
#       when: {vendor: Mellanox}
#     - command: mstconfig -d {{pci}} -y set {{param}}={{link_type}}
#       note: on {{nodes}} - then reboot (or mstfwreset -d {{pci}} reset) for it to take effect
#       when: {vendor: Mellanox}
package rdmadoctor.rules.fleet_link_type_drift

import data.rdmadoctor.lib.fleet

model(dev) := {"kind": "PSID", "value": dev.psid} if dev.psid

else := {"kind": "device type", "value": dev.device_type} if dev.device_type

else := {"kind": "CA type", "value": dev.ca_type} if dev.ca_type

# entries are the LINK_TYPE settings, by node and device index. The aggregates are complete
# rules, computed once per evaluation.
entries := [{"i": i, "j": j, "m": model(dev), "param": param, "v": v} |
	some i, node in input.nodes
	some j, dev in node.devices
	some param, v in dev.link_types
]

# hosts[[m, param]][v] are the nodes with an adapter of model m whose param is v.
hosts := {mp: {v: {input.nodes[e.i].host | some e in entries; [e.m, e.param] == mp; e.v == v} |
	some v in {e.v | some e in entries; [e.m, e.param] == mp}
} |
	some mp in {[e.m, e.param] | some e in entries}
}

want := {mp: v | some mp, by in hosts; v := fleet.majority({v: count(hs) | some v, hs in by})}

# word is the value mstconfig set takes: "IB" of "IB(1)".
word(v) := trim_space(split(v, "(")[0])

findings contains f if {
	some e in entries
	w := want[[e.m, e.param]]
	e.v != w
	node := input.nodes[e.i]
	dev := node.devices[e.j]
	n := count(hosts[[e.m, e.param]][w] - {node.host})
	f := {
		"nodes": [node.host],
		"subject": fleet.subject(dev),
		"message": sprintf("%s %s has %s %s while %d %s with %s %s have %s", [
			node.host, fleet.label(dev), e.param, e.v, n, fleet.nodes_word(n),
			e.m.kind, e.m.value, w,
		]),
		"evidence": fleet.evidence(node, dev, [concat(".", ["link_types", e.param])]),
		"vars": {"param": e.param, "value": w, "link_type": word(w)},
	}
}

# no value of a setting of a model on more nodes than every other: each value with its nodes,
# none named the odd one. The subject is the adapter when every node of the value names it alike.
findings contains f if {
	some mp, by in hosts
	count(by) > 1
	not want[mp]
	[m, param] := mp
	some v, hs in by
	group := [e | some e in entries; [e.m, e.param, e.v] == [m, param, v]]
	first := sort([[input.nodes[e.i].host, e.j] | some e in group])[0]
	node := input.nodes[by_host[first[0]]]
	f := {
		"nodes": sort(hs),
		"subject": fleet.common_subject([input.nodes[e.i].devices[e.j] | some e in group]),
		"message": sprintf("adapters with %s %s have %s %s on %s, and no value is on more nodes than every other: %s", [
			m.kind, m.value, param, v, fleet.on(hs), fleet.split(by),
		]),
		"evidence": fleet.evidence(node, node.devices[first[1]], [concat(".", ["link_types", param])]),
		"confidence": "low",
		"vars": {"param": param, "value": fleet.others(by, v)},
	}
}

by_host := {node.host: i | some i, node in input.nodes}
