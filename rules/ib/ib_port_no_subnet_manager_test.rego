package rdmadoctor.rules.ib_port_no_subnet_manager_test

import data.rdmadoctor.rules.ib_port_no_subnet_manager as rule

# shaped like corpus 017 (ibstat of a back-to-back ConnectX-4 before opensm ran)
init_port := {
	"number": 1, "state": "Initializing", "physical_state": "LinkUp", "rate_gbps": 56,
	"lid": 65535, "sm_lid": 0, "link_layer": "InfiniBand",
	"evidence": {"state": {"source": "ibstat", "path": "ibstat", "line": 9, "text": "                State: Initializing"}},
}

test_fires_linkup_initializing if {
	fs := rule.findings with input as {"devices": [{"name": "ibp4s0", "ca_type": "MT4115", "ports": [init_port]}]}
	count(fs) == 1
	some f in fs
	f.subject == {"device": "ibp4s0", "port": 1}
	f.evidence[0].line == 9
	not f.confidence
}

test_fires_medium_when_master_answers if {
	fs := rule.findings with input as {
		"devices": [{"name": "mlx5_5", "ca_type": "MT4123", "ports": [init_port]}],
		"fabric": {"sminfo": [{"state": "SMINFO_MASTER", "sm_lid": 1}]},
	}
	some f in fs
	f.confidence == "medium"
}

test_no_finding_on_roce_port if {
	# RoCE ports always show SM lid 0 and LID 0 (catalog §2.4)
	p := object.union(init_port, {"link_layer": "Ethernet", "state": "Active", "lid": 0})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [p]}]}
}

test_no_finding_when_active if {
	p := object.union(init_port, {"state": "Active", "lid": 1, "sm_lid": 1})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [p]}]}
}

test_no_finding_on_vf if {
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_7", "ca_type": "MT4124", "ports": [init_port]}]}
}
