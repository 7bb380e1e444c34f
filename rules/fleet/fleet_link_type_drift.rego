# METADATA
# title: A node's adapter port is configured for another link type than its peers
# description: >-
#   The LINK_TYPE_P<n> firmware setting (mstconfig/mlxconfig: IB, ETH or VPI) of an adapter
#   differs from the same setting of the same model (PSID, else device type) on most nodes of
#   the fleet. The port then comes up as InfiniBand where its peers run Ethernet or the reverse:
#   it never links to the switch its peers are cabled to, or joins the wrong fabric. The
#   configured (next boot) value is compared; a query filtered so that it could not show the
#   setting is not compared.
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
