package rdmadoctor.rules.ipoib_mtu_clamped_by_broadcast_group_test

import data.rdmadoctor.rules.ipoib_mtu_clamped_by_broadcast_group as rule

clamp := {"kind": "ipoib_mtu_clamped", "netdev": "ib0", "evidence": {"line": 7, "text": "[   12.345678] ib0: mtu > 2044 will cause multicast packet drops."}}

test_fires_on_kernel_warning if {
	fs := rule.findings with input as {"host": {"kernel_events": [clamp, clamp]}}
	count(fs) == 1
	some f in fs
	f.subject == {"netdev": "ib0"}
	contains(f.message, "2044")
}

test_fires_on_profile_mtu_and_2044 if {
	nd := {"name": "ib0", "kind": "ipoib", "ipoib_mode": "datagram", "mtu": 2044}
	fs := rule.findings with input as {"netdevs": [nd], "profile": {"ipoib": {"mtu": 4092}}, "host": {}}
	count(fs) == 1
	some f in fs
	f.confidence == "medium"
}

test_no_finding_for_other_kernel_events if {
	ev := {"kind": "lost_carrier", "netdev": "ib0", "evidence": {}}
	count(rule.findings) == 0 with input as {"host": {"kernel_events": [ev]}}
}

test_no_finding_without_profile_for_2044 if {
	nd := {"name": "ib0", "kind": "ipoib", "ipoib_mode": "datagram", "mtu": 2044}
	count(rule.findings) == 0 with input as {"netdevs": [nd], "profile": null, "host": {}}
}
