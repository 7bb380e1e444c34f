package rdmadoctor.rules.ib_pkey_limited_membership_test

import data.rdmadoctor.rules.ib_pkey_limited_membership as rule

ibport(keys) := {"number": 1, "state": "Active", "physical_state": "LinkUp", "link_layer": "InfiniBand", "pkeys": keys}

test_fires_for_limited_default_pkey if {
	fs := rule.findings with input as {"devices": [{"name": "mlx5_0", "ports": [ibport(["0x7fff"])]}]}
	count(fs) == 1
	some f in fs
	f.subject.port == 1
}

test_fires_on_opensm_err_1b31 if {
	e := {"kind": "error", "evidence": {"line": 40, "text": "ERR 1B31: Both limited P_Keys: query 0x7fff group 0x7fff"}}
	count(rule.findings) == 1 with input as {"host": {"opensm": {"log_events": [e]}}}
}

test_no_finding_for_full_member if {
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [ibport(["0xffff", "0x8001"])]}]}
}

test_no_finding_for_vf if {
	# SR-IOV VFs get their P_Keys from the CNI/administrator
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_6", "ca_type": "MT4124", "ports": [ibport(["0x7fff"])]}]}
}
