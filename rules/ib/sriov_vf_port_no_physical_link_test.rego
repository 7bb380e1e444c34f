package rdmadoctor.rules.sriov_vf_port_no_physical_link_test

import data.rdmadoctor.rules.sriov_vf_port_no_physical_link as rule

# An Azure HPC VM: the ConnectX-5 VF of corpus 121 (MT4120) with the port states of the ibstat
# quoted in Azure/azhpc-diagnostics#76 ("State: Down", "Physical state: Polling").
vf := {"name": "mlx5_0", "ca_type": "MT4120", "ports": [{
	"number": 1, "state": "Down", "physical_state": "Polling", "link_layer": "InfiniBand",
	"evidence": {"state": {"line": 12, "text": "State: Down"}, "physical_state": {"line": 13, "text": "Physical state: Polling"}},
}]}

active_vf := {"name": "mlx5_1", "ca_type": "MT4120", "ports": [{"number": 1, "state": "Active", "physical_state": "LinkUp", "link_layer": "InfiniBand"}]}

test_fires_critical_on_only_fabric_port if {
	fs := rule.findings with input as {"devices": [vf]}
	count(fs) == 1
	some f in fs
	f.severity == "critical"
	contains(f.message, "Down / Polling")
	count(f.evidence) == 2
}

test_fires_error_when_another_port_is_active if {
	some f in rule.findings with input as {"devices": [vf, active_vf]}
	not f.severity
}

# The PF is visible (a bare-metal host): its own port finding says it.
test_no_finding_with_pf_visible if {
	pf := {"name": "mlx5_2", "ca_type": "MT4119", "ports": [{"number": 1, "state": "Down", "physical_state": "Polling", "link_layer": "InfiniBand"}]}
	count(rule.findings) == 0 with input as {"devices": [pf, vf]}
}

# corpus 011: a VF LinkUp but Down is the SM's side (sriov-vf-ib-port-not-active), not the link.
test_no_finding_for_vf_linkup if {
	v := object.union(vf, {"ports": [{"number": 1, "state": "Down", "physical_state": "LinkUp", "link_layer": "InfiniBand"}]})
	count(rule.findings) == 0 with input as {"devices": [v]}
}

# corpus 015: a RoCE VF Disabled is its netdev being down, not a fabric link.
test_no_finding_for_roce_vf if {
	v := object.union(vf, {"ports": [{"number": 1, "state": "Down", "physical_state": "Disabled", "link_layer": "Ethernet"}]})
	count(rule.findings) == 0 with input as {"devices": [v]}
}
