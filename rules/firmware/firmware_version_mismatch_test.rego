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
