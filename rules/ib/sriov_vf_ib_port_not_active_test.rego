package rdmadoctor.rules.sriov_vf_ib_port_not_active_test

import data.rdmadoctor.rules.sriov_vf_ib_port_not_active as rule

# corpus 011: ConnectX-6 VF in a pod
vf := {"name": "mlx5_7", "ca_type": "MT4124", "ports": [{
	"number": 1, "state": "Down", "physical_state": "LinkUp", "rate_gbps": 200,
	"lid": 65535, "sm_lid": 1, "link_layer": "InfiniBand",
}]}

pf := {"name": "mlx5_0", "ca_type": "MT4123", "ports": [{"number": 1, "state": "Active", "physical_state": "LinkUp", "link_layer": "InfiniBand"}]}

test_fires_vf_down_in_pod if {
	fs := rule.findings with input as {"devices": [vf]}
	count(fs) == 1
	some f in fs
	f.confidence == "medium"
	contains(f.message, "LID 65535")
}

test_fires_high_with_active_pf if {
	fs := rule.findings with input as {"devices": [pf, vf]}
	some f in fs
	not f.confidence
}

test_no_finding_for_active_vf if {
	v := object.union(vf, {"ports": [{"number": 1, "state": "Active", "physical_state": "LinkUp", "link_layer": "InfiniBand"}]})
	count(rule.findings) == 0 with input as {"devices": [pf, v]}
}

test_no_finding_for_pf if {
	p := object.union(vf, {"ca_type": "MT4123"})
	count(rule.findings) == 0 with input as {"devices": [p]}
}

test_no_finding_for_roce_vf if {
	v := object.union(vf, {"ports": [{"number": 1, "state": "Down", "physical_state": "LinkUp", "link_layer": "Ethernet"}]})
	count(rule.findings) == 0 with input as {"devices": [v]}
}
