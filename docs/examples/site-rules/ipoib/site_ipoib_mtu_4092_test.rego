package rdmadoctor.rules.site_ipoib_mtu_4092_test

import data.rdmadoctor.rules.site_ipoib_mtu_4092 as rule

# ib0 of corpus case 025 (`ip addr show dev ib0`): connected mode, MTU 65520.
ib0 := {"name": "ib0", "kind": "ipoib", "mtu": 65520}

test_fires_on_connected_mode_mtu if {
	fs := rule.findings with input as {"netdevs": [ib0]}
	count(fs) == 1
	some f in fs
	f.subject == {"netdev": "ib0"}
	f.message == "ib0 runs MTU 65520; IPoIB on this site runs 4092 (datagram mode)"
}

test_no_finding_at_site_mtu if {
	count(rule.findings) == 0 with input as {"netdevs": [object.union(ib0, {"mtu": 4092})]}
}

test_no_finding_on_ethernet if {
	count(rule.findings) == 0 with input as {"netdevs": [{"name": "eth0", "kind": "ethernet", "mtu": 9000}]}
}

test_no_finding_without_mtu if {
	count(rule.findings) == 0 with input as {"netdevs": [{"name": "ib0", "kind": "ipoib"}]}
}
