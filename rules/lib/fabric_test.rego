package rdmadoctor.lib.fabric_test

import data.rdmadoctor.lib.fabric

ev := {"source": "ibswinfo", "path": "ibswinfo_-d_lid-12", "line": 31, "text": "fan status         | ERROR"}

test_port_subject_names_the_node_by_guid_and_description if {
	f := fabric.port("0xfc6a1c030091cf00", "Quantum-2 Mellanox Technologies", 12, "m", [ev])
	f.subject == {"node_guid": "0xfc6a1c030091cf00", "node_description": "Quantum-2 Mellanox Technologies", "port": 12}
}

test_node_subject_leaves_out_unknown_fields if {
	fabric.node("", "SwitchIB Mellanox Technologies", "m", []).subject == {"node_description": "SwitchIB Mellanox Technologies"}
	fabric.name("", "SwitchIB Mellanox Technologies") == `"SwitchIB Mellanox Technologies"`
	fabric.name("0x1c34da0300010540", "") == "0x1c34da0300010540"
}

test_local_devices_join_by_guid_only if {
	devs := [{"name": "mlx5_0", "node_guid": "0x5c25730300e6706e"}, {"name": "mlx5_1"}]
	fabric.local_devices("0x5c25730300e6706e") == {"mlx5_0"} with input as {"devices": devs}
	fabric.local_devices("") == set() with input as {"devices": devs}
	fabric.local_devices("0xfc6a1c030091cf00") == set() with input as {"devices": devs}
}
