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
