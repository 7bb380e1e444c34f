# METADATA
# title: A node's adapter runs other firmware than its peers of the same PSID
# description: >-
#   Adapters of one PSID (the board's firmware identity; of one CA type when a node shows no
#   PSID) run one firmware version on most nodes of the fleet and another on a few. Mixed firmware
#   gives those nodes other link behaviour and features (FEC, congestion control, adaptive
#   routing) than their peers and makes problems hard to reproduce; vendor support asks for
#   matching firmware first. Nodes are compared with the version most of them run; when no
#   version is on more nodes than every other (an even split), there is no odd one out: each
#   version is reported with its nodes, with low confidence. A profile that sets
#   min_firmware for the CA type or device type states the intent instead: only adapters below
#   it are named, with high confidence. Different PSIDs (OEM and retail boards, other SKUs)
#   legitimately differ and are never compared. An adapter whose running version its snapshot
#   leaves unknown (a blank fw_ver) is not judged, and the report says so.
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/networking/display/mftv4341lts/mlxfwmanager+-+firmware+update+and+query+tool
#   - ref: https://github.com/Mellanox/mstflint
# custom:
#   id: fleet-firmware-skew
#   area: fleet
#   severity: warning
#   confidence: medium
#   requires: [nodes_firmware]
#   explains: []
#   needs_reboot: true
#   fix:
#     - command: mstflint -d {{pci}} query
#       note: on {{nodes}} - the PSID and the running firmware of {{device}}; the peers run {{version}}
#       when: {vendor: Mellanox}
#     - command: mstflint -d {{pci}} -i {{image}} burn
#       note: on {{nodes}} - the image of {{version}} for PSID {{psid}} (mlxfwmanager -d {{pci}} -u picks it from a firmware bundle)
#       when: {vendor: Mellanox}
#     - command: mstfwreset -d {{pci}} reset
#       note: loads the new firmware without a reboot where the adapter supports it; else reboot
#       when: {vendor: Mellanox}
package rdmadoctor.rules.fleet_firmware_skew

import data.rdmadoctor.lib.firmware
import data.rdmadoctor.lib.fleet
import data.rdmadoctor.lib.version

# model is the key adapters are compared by: the PSID, else the CA type.
model(dev) := {"kind": "PSID", "value": dev.psid} if dev.psid

else := {"kind": "CA type", "value": dev.ca_type} if dev.ca_type

# minimum is the profile's min_firmware for the adapter's CA type or device type.
minimum(dev) := v if {
	v := input.profile.min_firmware[dev.ca_type]
} else := v if {
	v := input.profile.min_firmware[dev.device_type]
}

# kind is the key min_firmware named: the CA type, else the device type.
kind(dev) := dev.ca_type if input.profile.min_firmware[dev.ca_type]

else := dev.device_type

# entries are the adapters with a firmware version and a model that the profile does not set a
# minimum for, by node and device index. Each aggregate below is a complete rule, computed once
# per evaluation: a fleet has thousands of nodes.
entries := [{"i": i, "j": j, "m": model(dev), "v": dev.firmware} |
	some i, node in input.nodes
	some j, dev in node.devices
	dev.firmware
	not minimum(dev)
]

# hosts[m][v] are the nodes with an adapter of model m at version v.
hosts := {m: {v: {input.nodes[e.i].host | some e in entries; e.m == m; e.v == v} | some v in versions_of[m]} |
	some m in {e.m | some e in entries}
}

versions_of := {m: {e.v | some e in entries; e.m == m} | some m in {e.m | some e in entries}}

# want[m] is the version of model m on more nodes than any other.
want := {m: v | some m, by in hosts; v := fleet.majority({v: count(hs) | some v, hs in by})}

# peer_line[m][v] is the evidence of one adapter at version v of model m: the first of those on
# the first node by host.
peer_line := {m: {v: lines[0] |
	some v, hs in by
	first := min(hs)
	lines := sort([fleet.evidence(input.nodes[e.i], input.nodes[e.i].devices[e.j], ["firmware", "psid"]) |
		some e in entries
		e.m == m
		e.v == v
		input.nodes[e.i].host == first
	])
} |
	some m, by in hosts
}

findings contains f if {
	some e in entries
	w := want[e.m]
	e.v != w
	node := input.nodes[e.i]
	dev := node.devices[e.j]
	n := count(hosts[e.m][w] - {node.host})
	f := {
		"nodes": [node.host],
		"subject": fleet.subject(dev),
		"message": sprintf("%s %s runs %s while %d %s with %s %s %s %s", [
			node.host, fleet.label(dev), e.v, n, fleet.nodes_word(n),
			e.m.kind, e.m.value, fleet.run_word(n), w,
		]),
		"evidence": array.concat(fleet.evidence(node, dev, ["firmware", "psid", "ca_type"]), peer_line[e.m][w]),
		"vars": {"version": w, "psid": object.get(dev, "psid", "")},
	}
}

# no version on more nodes than every other: each version with its nodes, none named the odd
# one. The subject is the adapter when every node of the version names it alike.
findings contains f if {
	some m, by in hosts
	count(by) > 1
	not want[m]
	some v, hs in by
	f := {
		"nodes": sort(hs),
		"subject": fleet.common_subject([input.nodes[e.i].devices[e.j] | some e in entries; e.m == m; e.v == v]),
		"message": sprintf("adapters with %s %s run %s on %s, and no version is on more nodes than every other: %s", [
			m.kind, m.value, v, fleet.on(hs), fleet.split(by),
		]),
		"evidence": peer_line[m][v],
		"confidence": "low",
		"vars": {"version": fleet.others(by, v), "psid": psid(m)},
	}
}

# An adapter of a model other nodes run with a known firmware version, whose own running
# version its snapshot leaves unknown (a blank "Firmware version:", an empty fw_ver, no input
# giving it), is not judged: never taken for one that matches its peers.
findings contains f if {
	some node in input.nodes
	some dev in node.devices
	object.get(dev, "firmware", "") == ""
	not minimum(dev)
	m := model(dev)
	others := {h | some hs in hosts[m]; some h in hs} - {node.host}
	count(others) > 0
	f := fleet.not_judged(
		{
			"nodes": [node.host],
			"subject": fleet.subject(dev),
			"message": sprintf("%s %s: firmware not compared", [node.host, fleet.label(dev)]),
			"evidence": fleet.evidence(node, dev, ["firmware", "psid", "ca_type"]),
		},
		sprintf("%s, so it is not compared with the %d other %s of %s %s", [
			firmware.unknown_version(dev, "firmware"), count(others), fleet.nodes_word(count(others)), m.kind, m.value,
		]),
	)
}

psid(m) := m.value if m.kind == "PSID"

else := ""

# the profile states the lowest acceptable version.
findings contains f if {
	some node in input.nodes
	some dev in node.devices
	dev.firmware
	low := minimum(dev)
	version.less(dev.firmware, low)
	f := {
		"nodes": [node.host],
		"subject": fleet.subject(dev),
		"message": sprintf("%s %s runs %s, below the profile's min_firmware %s for %s", [
			node.host, fleet.label(dev), dev.firmware, low, kind(dev),
		]),
		"evidence": fleet.evidence(node, dev, ["firmware", "psid", "ca_type"]),
		"confidence": "high",
		"vars": {"version": low, "psid": object.get(dev, "psid", "")},
	}
}
