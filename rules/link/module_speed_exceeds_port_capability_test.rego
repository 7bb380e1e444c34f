package rdmadoctor.rules.module_speed_exceeds_port_capability_test

import data.rdmadoctor.rules.module_speed_exceeds_port_capability as rule

# shaped like fixtures/scenarios/qsfp28-in-qsfp-plus-port
qsfp28 := {
	"identifier": "QSFP28", "identifier_code": "0x11",
	"compliance": ["100G Ethernet: 100G Base-SR4 or 25GBase-SR"],
	"nominal_bit_rate_mbps": 25500,
	"evidence": {"identifier": {"source": "ethtool_module", "path": "ethtool_-m_enp3s0", "line": 2, "text": "\tIdentifier                                : 0x11 (QSFP28)"}},
}

port40 := {
	"name": "enp3s0", "kind": "ethernet", "link_detected": false,
	"supported_link_modes": ["1000baseKX/Full", "10000baseKX4/Full", "40000baseCR4/Full", "40000baseSR4/Full"],
	"max_supported_speed_mbps": 40000,
	"module": qsfp28,
}

test_fires_qsfp28_in_40g_port if {
	fs := rule.findings with input as {"netdevs": [port40]}
	count(fs) == 1
	some f in fs
	f.subject == {"netdev": "enp3s0"}
	f.evidence[0].line == 2
	not f.severity # the rule's own: error, the link is down (Link detected: no)
}

# With the link's state unknown (no Link detected line, no RDMA port), a warning: a dual-rate
# optic may run at the port's rate.
test_fires_as_warning_when_link_state_unknown if {
	nd := object.remove(port40, ["link_detected"])
	fs := rule.findings with input as {"netdevs": [nd], "devices": []}
	count(fs) == 1
	some f in fs
	f.severity == "warning"
}

# The RDMA port of the netdev is Down: an error, though ethtool gave no Link detected line.
test_fires_as_error_when_rdma_port_down if {
	nd := object.remove(port40, ["link_detected"])
	dev := {"name": "mlx4_0", "ports": [{"number": 1, "state": "Down", "physical_state": "Polling", "netdev": "enp3s0"}]}
	fs := rule.findings with input as {"netdevs": [nd], "devices": [dev]}
	count(fs) == 1
	some f in fs
	not f.severity
}

test_fires_from_link_modes_without_max_field if {
	nd := object.remove(port40, ["max_supported_speed_mbps"])
	count(rule.findings) == 1 with input as {"netdevs": [nd]}
}

test_no_finding_when_link_is_up if {
	# dual-rate optics and DACs run at 40G: nothing to report then
	count(rule.findings) == 0 with input as {"netdevs": [object.union(port40, {"link_detected": true})]}
}

test_no_finding_for_qsfp28_in_100g_port if {
	nd := object.union(port40, {"max_supported_speed_mbps": 100000})
	count(rule.findings) == 0 with input as {"netdevs": [nd]}
}

test_no_finding_on_ipoib if {
	nd := object.union(port40, {"name": "ib0", "kind": "ipoib"})
	count(rule.findings) == 0 with input as {"netdevs": [nd]}
}

# corpus 055's QSFP28 SR4 and corpus 045's `ethtool -i` (mlx4_en): no link modes, the driver names
# the ConnectX-3 family, whose ports run at most 56G.
test_fires_qsfp28_on_mlx4_en_without_link_modes if {
	nd := {"name": "enp1s0", "kind": "ethernet", "driver": "mlx4_en", "module": qsfp28}
	fs := rule.findings with input as {"netdevs": [nd], "devices": []}
	some f in fs
	contains(f.message, "ConnectX-3 (mlx4_en) ports run at most 56G")
}

test_no_qsfp_plus_on_mlx4_en if {
	m := {"identifier": "QSFP+", "compliance": ["40G Ethernet: 40G Base-SR4"]}
	count(rule.findings) == 0 with input as {"netdevs": [{"name": "enp1s0", "kind": "ethernet", "driver": "mlx4_en", "module": m}], "devices": []}
}

test_no_qsfp28_on_connectx4_model if {
	nd := {"name": "enp1s0", "kind": "ethernet", "pci_address": "0000:01:00.0", "module": qsfp28}
	count(rule.findings) == 0 with input as {"netdevs": [nd], "devices": [{"name": "mlx5_0", "ca_type": "MT4115", "pci_address": "0000:01:00.0", "ports": []}]}
}

test_fires_mlxlink_opcode_41_faster_cable if {
	fs := rule.findings with input as {"devices": [], "netdevs": [], "mlxlink": [{
		"device": "0000:01:00.0", "pci_address": "0000:01:00.0", "port_type": "NETWORK", "state": "Down",
		"status_opcode": 41, "recommendation": "Port is closed, module cannot be set to the enabled rate",
		"enabled_link_speed": "40G,10G,1G", "supported_cable_speed": "100G_4X",
	}]}
	some f in fs
	f.subject == {"pci": "0000:01:00.0"}
	not f.severity # State Down: the module keeps the port closed
}
