package rdmadoctor.rules.firmware_version_mismatch_test

import data.rdmadoctor.rules.firmware_version_mismatch as rule

dev(name, fw, psid) := {"name": name, "ca_type": "MT4129", "firmware": fw, "board_id": psid, "ports": []}

test_fires_same_psid_different_fw if {
	fs := rule.findings with input as {"devices": [dev("mlx5_0", "28.39.1002", "MT_0000000838"), dev("mlx5_1", "28.36.1010", "MT_0000000838")]}
	count(fs) == 1
	some f in fs
	f.subject == {"device": "mlx5_1"}
	not f.confidence
}

test_fires_medium_without_psid if {
	fs := rule.findings with input as {"devices": [
		{"name": "mlx5_0", "ca_type": "MT4129", "firmware": "28.39.1002", "ports": []},
		{"name": "mlx5_1", "ca_type": "MT4129", "firmware": "28.36.1010", "ports": []},
	]}
	some f in fs
	f.confidence == "medium"
}

test_no_finding_for_different_psid if {
	count(rule.findings) == 0 with input as {"devices": [dev("mlx5_0", "28.39.1002", "MT_0000000838"), dev("mlx5_1", "28.36.1010", "DEL0000000031")]}
}

test_no_finding_for_different_models if {
	# corpus 039: ConnectX-6 20.33.1048 next to a ConnectX-4 Lx 14.32.1010
	cx4lx := {"name": "mlx5_2", "ca_type": "MT4117", "firmware": "14.32.1010", "ports": []}
	cx6 := {"name": "mlx5_0", "ca_type": "MT4123", "firmware": "20.33.1048", "ports": []}
	count(rule.findings) == 0 with input as {"devices": [cx6, cx4lx]}
}

test_no_finding_for_vf if {
	vf := {"name": "mlx5_2", "ca_type": "MT4124", "firmware": "20.28.4000", "ports": []}
	pf := {"name": "mlx5_0", "ca_type": "MT4123", "firmware": "20.33.1048", "ports": []}
	count(rule.findings) == 0 with input as {"devices": [pf, vf]}
}

# corpus 301 (ibdiagnet2 db_csv): Quantum-2 leaves of one PSID on two releases, the spine of
# another PSID on the older one.
qm2(guid, psid, fw, line) := {
	"type": "Switch", "guid": guid, "description": "Quantum-2 Mellanox Technologies", "device_id": 54002, "psid": psid, "firmware_version": fw,
	"field_evidence": {"firmware_version": {"source": "ibdiagnet2_db_csv", "path": "ibdiagnet2.db_csv", "line": line, "text": concat(",", [guid, "0xd2f2,..."])}},
}

fabric_nodes := [
	qm2("0xfc6a1c030091cf00", "MT_0000000579", "31.2012.1024", 5055),
	qm2("0xfc6a1c03008a4dc0", "MT_0000000579", "31.2012.1024", 5056),
	qm2("0xb0cf0e0300e5b940", "MT_0000000579", "31.2012.1068", 5057),
	qm2("0xb0cf0e0300d33fc0", "MT_0000000577", "31.2012.1024", 5054),
]

test_fires_on_fabric_switches_behind_the_newest_of_their_psid if {
	fs := rule.findings with input as {"fabric": {"nodes": fabric_nodes}}
	{f.subject.node_guid | some f in fs} == {"0xfc6a1c030091cf00", "0xfc6a1c03008a4dc0"}
	some f in fs
	f.subject.node_guid == "0xfc6a1c030091cf00"
	f.message == `switch 0xfc6a1c030091cf00 "Quantum-2 Mellanox Technologies" (device 54002, PSID MT_0000000579) runs firmware 31.2012.1024; the newest of that device and PSID in the fabric is 31.2012.1068 (1 switch, e.g. 0xb0cf0e0300e5b940)`
	[e.line | some e in f.evidence] == [5055, 5057]
}

# the spine alone carries PSID MT_0000000577: nothing to compare it with
test_no_fabric_finding_across_psids if {
	count(rule.findings) == 0 with input as {"fabric": {"nodes": [fabric_nodes[2], fabric_nodes[3]]}}
}

# A blank firmware version (an empty fw_ver, a blank ibstat line) beside a device of the same
# model is unknown: not judged, never taken for a match.
test_not_judged_on_blank_firmware if {
	a := {"name": "mlx5_0", "ca_type": "MT4123", "firmware": "20.31.1014", "board_id": "MT_0000000223"}
	b := {"name": "mlx5_1", "ca_type": "MT4123", "firmware": "", "board_id": "MT_0000000223"}
	fs := rule.findings with input as {"devices": [a, b]}
	count(fs) == 1
	some f in fs
	f.subject == {"device": "mlx5_1"}
	contains(f.unknown, "not compared with mlx5_0 (MT4123)")
}

test_no_unknown_without_another_device_of_the_model if {
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_1", "ca_type": "MT4123", "firmware": ""}]}
}
