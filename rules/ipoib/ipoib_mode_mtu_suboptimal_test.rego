package rdmadoctor.rules.ipoib_mode_mtu_suboptimal_test

import data.rdmadoctor.rules.ipoib_mode_mtu_suboptimal as rule

dev := {"name": "mlx5_0", "ports": [{"number": 1, "state": "Active", "link_layer": "InfiniBand", "active_mtu": 4096, "netdev": "ib0"}]}

ib0 := {"name": "ib0", "kind": "ipoib", "ipoib_mode": "datagram", "mtu": 2044, "admin_up": true}

test_fires_2044_on_4k_port if {
	fs := rule.findings with input as {"devices": [dev], "netdevs": [ib0]}
	count(fs) == 1
	some f in fs
	f.subject == {"netdev": "ib0", "device": "mlx5_0", "port": 1}
}

test_fires_on_profile_mtu if {
	nd := object.union(ib0, {"mtu": 4092})
	count(rule.findings) == 1 with input as {"netdevs": [nd], "profile": {"ipoib": {"mtu": 65520}}}
}

test_no_finding_at_4092 if {
	nd := object.union(ib0, {"mtu": 4092})
	count(rule.findings) == 0 with input as {"devices": [dev], "netdevs": [nd]}
}

test_no_finding_when_port_mtu_is_2048 if {
	# the broadcast group or the port limits MTU to 2048: 2044 is the right value
	d := {"name": "mlx5_0", "ports": [{"number": 1, "active_mtu": 2048, "netdev": "ib0"}]}
	count(rule.findings) == 0 with input as {"devices": [d], "netdevs": [ib0]}
}

test_no_finding_for_connected_65520 if {
	# corpus 025: connected mode with MTU 65520 is a deliberate setting
	nd := object.union(ib0, {"ipoib_mode": "connected", "mtu": 65520})
	count(rule.findings) == 0 with input as {"devices": [dev], "netdevs": [nd]}
}
