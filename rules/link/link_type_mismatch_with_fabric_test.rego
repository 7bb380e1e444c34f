package rdmadoctor.rules.link_type_mismatch_with_fabric_test

import data.rdmadoctor.rules.link_type_mismatch_with_fabric as rule

# shaped like fixtures/scenarios/cx-ib-mode-on-ethernet-switch
dev := {"name": "mlx5_0", "ca_type": "MT4115", "ports": [{
	"number": 1, "state": "Down", "physical_state": "Polling", "rate_gbps": 10,
	"lid": 65535, "sm_lid": 0, "link_layer": "InfiniBand",
}]}

nv := {"device": "0000:81:00.0", "pci_address": "0000:81:00.0", "params": {"LINK_TYPE_P1": {
	"next_boot": "IB(1)",
	"evidence": {"source": "mstconfig_query", "path": "mstconfig_-d_81_00.0_q", "line": 12, "text": "         LINK_TYPE_P1                                IB(1)"},
}}}

base := {"devices": [dev], "nvconfig": [nv], "netdevs": [{"name": "ib0", "kind": "ipoib", "rdma_device": "mlx5_0", "rdma_port": 1}]}

test_fires_critical_high_with_ethernet_profile if {
	fs := rule.findings with input as object.union(base, {"profile": {"fabric": "ethernet"}})
	count(fs) == 1
	some f in fs
	f.vars == {"param": "LINK_TYPE_P1", "value": "2"}
	f.subject == {"device": "mlx5_0", "port": 1, "pci": "0000:81:00.0", "netdev": "ib0"}
	not f.confidence
	f.evidence[0].line == 12
}

test_fires_low_without_profile_or_cable_evidence if {
	# an unplugged IB port looks the same: Polling, no SM
	fs := rule.findings with input as base
	count(fs) == 1
	some f in fs
	f.confidence == "low"
	f.vars.value == "2"
	contains(f.message, "(LINK_TYPE_P1 IB(1))")
}

test_fires_medium_without_profile_when_a_cable_is_plugged if {
	cable := {"device": "/dev/mst/mt4115_pciconf0", "pci_address": "0000:81:00.0", "port_type": "NETWORK", "cable_type": "Passive copper cable"}
	joined := object.union(dev, {"pci_address": "0000:81:00.0"})
	fs := rule.findings with input as object.union(base, {"devices": [joined], "mlxlink": [cable]})
	some f in fs
	f.confidence == "medium"
}

test_fires_reverse_with_per_port_profile if {
	eth := {"name": "mlx5_0", "ports": [{"number": 1, "state": "Down", "physical_state": "Polling", "link_layer": "Ethernet"}]}
	fs := rule.findings with input as {
		"devices": [eth],
		"nvconfig": [{"device": "0000:81:00.0", "pci_address": "0000:81:00.0", "params": {"LINK_TYPE_P1": {"next_boot": "ETH(2)"}}}],
		"profile": {"devices": {"mlx5_0": {"ports": {"1": {"fabric": "ib"}}}}},
	}
	some f in fs
	f.vars == {"param": "LINK_TYPE_P1", "value": "1"}
}

test_fires_for_query_without_device if {
	fs := rule.findings with input as {"nvconfig": [nv], "profile": {"fabric": "ethernet"}}
	some f in fs
	f.subject == {"pci": "0000:81:00.0", "port": 1}
}

test_no_finding_when_profile_agrees if {
	count(rule.findings) == 0 with input as object.union(base, {"profile": {"fabric": "ib"}})
}

test_no_finding_without_profile_when_another_ib_port_is_active if {
	other := {"name": "mlx5_1", "ports": [{"number": 1, "state": "Active", "physical_state": "LinkUp", "link_layer": "InfiniBand"}]}
	joined := object.union(dev, {"pci_address": "0000:81:00.0"})
	count(rule.findings) == 1 with input as object.union(base, {"devices": [joined]})
	count(rule.findings) == 0 with input as object.union(base, {"devices": [joined, other]})
}

test_no_finding_without_mstconfig_and_profile if {
	count(rule.findings) == 0 with input as {"devices": [dev]}
}

test_no_finding_for_eth_only_card if {
	# corpus 102: ConnectX-6 Dx has no LINK_TYPE parameter at all
	count(rule.findings) == 0 with input as {
		"devices": [object.union(dev, {"ca_type": "MT4125"})],
		"nvconfig": [{"device": "0000:81:00.0", "pci_address": "0000:81:00.0", "params": {"SRIOV_EN": {"next_boot": "True(1)"}}}],
	}
}

test_fires_from_mlxlink_opcode_40 if {
	fs := rule.findings with input as {"devices": [], "netdevs": [], "nvconfig": [], "pci": [], "mlxlink": [{
		"device": "mlx5_0", "port_type": "NETWORK", "state": "Down", "status_opcode": 40, "recommendation": "VPI protocol do not match",
	}]}
	some f in fs
	f.subject == {"device": "mlx5_0", "port": 1}
	f.vars.param == "LINK_TYPE_P1"
	f.confidence == "medium"
}

test_no_mlxlink_finding_for_other_opcodes if {
	count(rule.findings) == 0 with input as {"devices": [], "netdevs": [], "nvconfig": [], "pci": [], "mlxlink": [{
		"device": "mlx5_0", "port_type": "NETWORK", "state": "Down", "status_opcode": 57, "recommendation": "Signal not detected",
	}]}
}
