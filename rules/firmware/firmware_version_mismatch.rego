# METADATA
# title: Adapters of the same model run different firmware
# description: >-
#   Two adapters of the same model and PSID on this node run different firmware versions. Mixed
#   firmware gives inconsistent link behaviour and features (FEC, congestion control, adaptive
#   routing) and makes problems hard to reproduce; vendor support asks for matching firmware first.
#   Different PSIDs (OEM vs retail, different SKUs) legitimately differ and are not compared.
#   A fabric-wide view (ibdiagnet2 db_csv NODES and NODES_INFO) is judged the same way across
#   the fabric's nodes: switches or HCAs of one device id and PSID that run an older firmware
#   than the newest of them, as ibdiagnet's own FW check (NODE_WRONG_FW_VERSION) does.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/ibstat.c
#   - ref: https://docs.nvidia.com/networking/display/mftv4341lts/mlxfwmanager+-+firmware+update+and+query+tool
#   - ref: https://docs.nvidia.com/networking/display/ibdiagnetutilityv2230/Fabric+Nodes+Validation
# custom:
#   id: firmware-version-mismatch
#   area: firmware
#   severity: warning
#   confidence: high
#   requires:
#     - facts: [rdma_devices]
#     - facts: [firmware_query]
#     - facts: [ethtool_driver]
#     - facts: [fabric_nodes]
#   explains: []
#   needs_reboot: true
#   fix:
#     - command: mlxfwmanager --query
#       note: PSID, current and available versions per device
#       when: {vendor: Mellanox}
#     - command: mlxfwmanager -u -d {{pci}}
#       note: bring every card of this model to the same release (or mstflint -d {{pci}} -i <image> burn), then mstfwreset or reboot
#       when: {vendor: Mellanox}
#     - command: flint -d lid-{{lid}} query
#       note: a switch or another node of the fabric (node_guid subject) - its firmware in band; burn the release the newest of its model runs (flint -d lid-{{lid}} -i <image> burn, or the switch's own update), then reboot the switch
#       when: {vendor: Mellanox}
package rdmadoctor.rules.firmware_version_mismatch

import data.rdmadoctor.lib.fabric
import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.firmware
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.version

# physical devices of this node's first capture, by CA type
pfs := [d |
	some d in input.devices
	not hca.is_vf(d)
	object.get(d, "capture", "") == ""
	object.get(d, "firmware", "") != ""
	hca.ca_type(d)
]

# mixed are the CA types whose physical devices run more than one firmware version: pairs are
# compared only within them, so a node of many identical devices costs one pass, not all pairs.
mixed contains t if {
	some t in {hca.ca_type(d) | some d in pfs}
	count({d.firmware | some d in pfs; hca.ca_type(d) == t}) > 1
}

findings contains f if {
	some a in pfs
	hca.ca_type(a) in mixed
	some b in pfs
	a.name < b.name
	hca.ca_type(a) == hca.ca_type(b)
	a.firmware != b.firmware
	same_psid(a, b)
	[old, other] := older_first(a, b)
	base := finding.device(
		old,
		sprintf("%s runs firmware %s but %s, the same model (%s), runs %s", [old.name, old.firmware, other.name, hca.ca_type(a), other.firmware]),
		array.concat(finding.evidence(old, ["firmware"]), finding.evidence(other, ["firmware"])),
	)
	f := finding.with_fields(base, grade(a, b))
}

# A physical device whose firmware version the capture leaves blank, beside devices of its
# model that give theirs, is not judged: never taken for one that matches.
findings contains f if {
	some d in input.devices
	not hca.is_vf(d)
	object.get(d, "capture", "") == ""
	object.get(d, "firmware", "") == ""
	t := hca.ca_type(d)
	others := sort([o.name | some o in pfs; hca.ca_type(o) == t])
	count(others) > 0
	f := finding.not_judged(
		finding.device(d, sprintf("%s: firmware not compared", [d.name]), finding.evidence(d, ["firmware", "ca_type"])),
		sprintf("%s, so it is not compared with %s (%s)", [firmware.unknown_version(d, "firmware"), concat(", ", others), t]),
	)
}

# Without board ids on both sides the PSIDs could differ: less certain.
same_psid(a, b) if a.board_id == b.board_id

same_psid(a, b) if {
	object.get(a, "board_id", "") == ""
	object.get(b, "board_id", "") == ""
}

grade(a, b) := {} if {
	a.board_id != ""
	a.board_id == b.board_id
} else := {"confidence": "medium"}

older_first(a, b) := [a, b] if {
	version.less(a.firmware, b.firmware)
} else := [b, a]

# fabric_nodes are the fabric's nodes whose model (device id), PSID and firmware a fabric-wide
# tool read (ibdiagnet2 db_csv).
fabric_nodes := [n |
	some n in input.fabric.nodes
	is_number(n.device_id)
	object.get(n, "psid", "") != ""
	object.get(n, "firmware_version", "") != ""
]

# newest is the newest firmware of each device id and PSID among the fabric's nodes (complete
# objects: built once, where a keyed rule would be evaluated again at every lookup).
newest := {key: v |
	some key in {[n.device_id, n.psid] | some n in fabric_nodes}
	vs := {n.firmware_version | some n in fabric_nodes; [n.device_id, n.psid] == key}
	v := max_version(vs)
}

max_version(vs) := v if {
	some v in vs
	every w in vs {
		not version.less(v, w)
	}
}

# an_example is the lowest GUID of the nodes that run the newest firmware of key.
an_example := {key: g |
	some key, top in newest
	g := min({x.guid | some x in fabric_nodes; [x.device_id, x.psid] == key; x.firmware_version == top})
}

# at_newest counts the nodes of key on its newest firmware.
at_newest := {key: c |
	some key, top in newest
	c := count([x | some x in fabric_nodes; [x.device_id, x.psid] == key; x.firmware_version == top])
}

findings contains f if {
	some n in fabric_nodes
	key := [n.device_id, n.psid]
	top := newest[key]
	version.less(n.firmware_version, top)
	some m in fabric_nodes
	m.guid == an_example[key]
	same := at_newest[key]
	base := fabric.node(
		n.guid, object.get(n, "description", ""),
		sprintf("%s %s (device %d, PSID %s) runs firmware %s; the newest of that device and PSID in the fabric is %s (%d %s, e.g. %s)", [kind(n), fabric.name(n.guid, object.get(n, "description", "")), n.device_id, n.psid, n.firmware_version, top, same, kinds(n, same), m.guid]),
		array.concat(fw_evidence(n), fw_evidence(m)),
	)
	f := finding.with_fields(base, lid_vars(n))
}

fw_evidence(n) := [e | e := object.get(n, "field_evidence", {}).firmware_version]

kind(n) := "switch" if {
	n.type == "Switch"
} else := "HCA" if {
	n.type == "CA"
} else := "node"

kinds(n, 1) := kind(n)

kinds(n, c) := "switches" if {
	c != 1
	kind(n) == "switch"
} else := sprintf("%ss", [kind(n)]) if c != 1

lid_vars(n) := {"vars": {"lid": n.lid}} if {
	is_number(n.lid)
} else := {}
