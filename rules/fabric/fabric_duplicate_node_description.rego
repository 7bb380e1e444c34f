# METADATA
# title: Fabric nodes share one node description
# description: >-
#   Two or more switches (or HCAs) of the fabric carry the same node description, typically the
#   factory default of unmanaged switches ("Quantum-2 Mellanox Technologies", "SwitchX -
#   Mellanox Technologies"). Links, SM logs, ibdiagnet and UFM reports name nodes by it, so a
#   fault on one of them cannot be told from the others without looking up GUIDs. A naming
#   problem, not a link fault; ibdiagnet's own check reports it too (NODE_DUPLICATED_NODE_DESC:
#   "If you have unmanaged systems then duplication can occur"). SHARP aggregation nodes, which
#   carry one fixed description inside every Quantum switch, are not compared.
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/networking/display/ibdiagnetutilityv2230/Fabric+Nodes+Validation
#   - ref: https://github.com/stanford-rc/ibswinfo
#   - ref: https://github.com/linux-rdma/opensm/blob/master/man/opensm.8.in
# custom:
#   id: fabric-duplicate-node-description
#   area: fabric
#   severity: info
#   confidence: high
#   requires: [fabric_nodes]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ibswinfo -d lid-{{lid}} -S <new description>
#       note: give each unmanaged switch its own name (stanford-rc/ibswinfo >= 0.6, MFT >= 4.22), or map GUIDs to names in the SM's node-name map (opensm node_name_map_name)
#     - command: ibswitches
#       note: the switches' GUIDs, LIDs and descriptions
package rdmadoctor.rules.fabric_duplicate_node_description

import data.rdmadoctor.lib.fabric

# SHARP's in-switch aggregation node has one fixed description on every Quantum switch.
by_design := {"Mellanox Technologies Aggregation Node"}

named := [n |
	some n in input.fabric.nodes
	object.get(n, "description", "") != ""
	not n.description in by_design
]

# shared are the descriptions more than one node carries, with their GUIDs (built once).
shared := {desc: guids |
	some desc in {n.description | some n in named}
	guids := {n.guid | some n in named; n.description == desc}
	count(guids) > 1
}

findings contains f if {
	some n in named
	others := shared[n.description] - {n.guid}
	base := fabric.node(
		n.guid, n.description,
		sprintf("%s %s shares its node description with %d other node(s): %s", [lower(n.type), n.guid, count(others), listed(others)]),
		[n.evidence],
	)
	f := object.union(base, lid_vars(n))
}

# listed names up to 4 GUIDs and counts the rest.
listed(guids) := concat(", ", sort(guids)) if {
	count(guids) <= 4
} else := sprintf("%s and %d more", [concat(", ", array.slice(sort(guids), 0, 4)), count(guids) - 4])

lid_vars(n) := {"vars": {"lid": n.lid}} if {
	is_number(n.lid)
} else := {}
