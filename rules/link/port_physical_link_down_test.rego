package rdmadoctor.rules.port_physical_link_down_test

import data.rdmadoctor.rules.port_physical_link_down as rule

polling := {"number": 1, "state": "Down", "physical_state": "Polling", "rate_gbps": 10, "link_layer": "InfiniBand"}

active := {"number": 1, "state": "Active", "physical_state": "LinkUp", "rate_gbps": 200, "link_layer": "InfiniBand"}

test_fires_critical_medium_single_port_polling if {
	fs := rule.findings with input as {"devices": [{"name": "mlx5_0", "ports": [polling]}]}
	count(fs) == 1
	some f in fs
	f.confidence == "medium"
	not f.severity
}

test_fires_critical_high_when_in_use if {
	fs := rule.findings with input as {
		"devices": [{"name": "mlx5_0", "ports": [polling]}],
		"netdevs": [{"name": "ib0", "rdma_device": "mlx5_0", "rdma_port": 1, "admin_up": true, "ipv4": ["192.0.2.1/24"]}],
	}
	some f in fs
	f.subject == {"device": "mlx5_0", "port": 1, "netdev": "ib0"}
	not f.confidence
	not f.severity
}

test_fires_info_for_spare_port if {
	# corpus 039: second HDR HCA Disabled while mlx5_0 is Active
	disabled := object.union(polling, {"physical_state": "Disabled"})
	fs := rule.findings with input as {"devices": [
		{"name": "mlx5_0", "ports": [active]},
		{"name": "mlx5_1", "ports": [disabled]},
	]}
	some f in fs
	f.severity == "info"
	f.scope == "unused_port"
	contains(f.message, "disabled locally")
}

test_fires_for_ipoib_netdev_without_link if {
	# corpus 125: only `ethtool ib0` was captured
	fs := rule.findings with input as {"netdevs": [{"name": "ib0", "link_detected": false}]}
	count(fs) == 1
}

test_no_finding_when_profile_marks_unused if {
	count(rule.findings) == 0 with input as {
		"devices": [{"name": "mlx5_0", "ports": [polling]}],
		"profile": {"devices": {"mlx5_0": {"ports": {"1": {"unused": true}}}}},
	}
}

test_no_finding_on_linkup if {
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [active]}]}
}

test_no_finding_for_ipoib_netdev_when_port_known if {
	count(rule.findings) == 0 with input as {
		"devices": [{"name": "mlx5_0", "ports": [object.union(active, {"netdev": "ib0"})]}],
		"netdevs": [{"name": "ib0", "link_detected": false}],
	}
}

# An mlxlink report alone: the link is down and the firmware says why (NVIDIA opcode 57).
test_fires_from_mlxlink_down_with_opcode if {
	fs := rule.findings with input as {"devices": [], "netdevs": [], "mlxlink": [{
		"device": "0000:81:00.0", "pci_address": "0000:81:00.0", "port_type": "NETWORK",
		"state": "Down", "physical_state": "Polling", "status_opcode": 57, "recommendation": "Signal not detected",
	}]}
	some f in fs
	f.subject == {"pci": "0000:81:00.0"}
	contains(f.message, "Status Opcode 57: Signal not detected (Signal not detected)")
}

test_no_mlxlink_finding_when_active if {
	count(rule.findings) == 0 with input as {"devices": [], "netdevs": [], "mlxlink": [{
		"device": "mlx5_0", "port_type": "NETWORK", "state": "Active", "physical_state": "LinkUp",
		"status_opcode": 25, "recommendation": "Cable speed not enabled",
	}]}
}

# corpus 029's ibportstate block (LID 38 port 1, Down / Polling after `enable`), without ibstat.
pi029 := {
	"device": "mlx4_0", "port": 1, "title": "After PortInfo set", "latest": true, "lid": 38, "port_number": 1,
	"link_state": "Down", "phys_link_state": "Polling", "width_active": 4, "speed_active": "QDR",
}

test_fires_from_ibportstate_alone if {
	fs := rule.findings with input as {"devices": [], "netdevs": [], "port_info": [pi029]}
	some f in fs
	f.subject == {"device": "mlx4_0"}
	contains(f.message, "LID 38 (port 1) is Down / Polling")
}

test_no_ibportstate_finding_when_the_port_state_is_known if {
	fs := rule.findings with input as {
		"devices": [{"name": "mlx4_0", "ca_type": "MT4103", "ports": [{"number": 1, "lid": 38, "state": "Active", "physical_state": "LinkUp", "link_layer": "InfiniBand"}]}],
		"netdevs": [], "port_info": [pi029],
	}
	count(fs) == 0
}
