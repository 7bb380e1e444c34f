package rdmadoctor.rules.fabric_duplicate_node_description_test

import data.rdmadoctor.rules.fabric_duplicate_node_description as rule

node(guid, desc, line) := {"type": "Switch", "guid": guid, "description": desc, "evidence": {"source": "ibdiagnet2_db_csv", "path": "ibdiagnet2.db_csv", "line": line, "text": sprintf("%q,65,2,...", [desc])}}

# corpus 301: unmanaged Quantum-2 leaves keep the factory description.
test_fires_on_switches_sharing_the_default_description if {
	fs := rule.findings with input as {"fabric": {"nodes": [
		node("0xfc6a1c030091cf00", "Quantum-2 Mellanox Technologies", 32),
		node("0xfc6a1c03008a4dc0", "Quantum-2 Mellanox Technologies", 33),
		node("0xb0cf0e0300d33fc0", "MF0;ib-switch-sequoia:MQM9700/U1", 31),
	]}}
	count(fs) == 2
	some f in fs
	f.subject == {"node_guid": "0xfc6a1c030091cf00", "node_description": "Quantum-2 Mellanox Technologies"}
	f.message == "switch 0xfc6a1c030091cf00 shares its node description with 1 other node(s): 0xfc6a1c03008a4dc0"
}

# SHARP aggregation nodes carry one fixed description in every Quantum switch; unique names pass
test_no_finding_for_aggregation_nodes_or_unique_names if {
	count(rule.findings) == 0 with input as {"fabric": {"nodes": [
		node("0xfc6a1c030091cf08", "Mellanox Technologies Aggregation Node", 40),
		node("0xfc6a1c03008a4dc8", "Mellanox Technologies Aggregation Node", 41),
		node("0xb0cf0e0300d33fc0", "MF0;ib-switch-sequoia:MQM9700/U1", 31),
		node("0x5c25730300e6706e", "node01 mlx5_8", 39),
	]}}
}
