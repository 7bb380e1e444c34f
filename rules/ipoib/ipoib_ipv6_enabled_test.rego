package rdmadoctor.rules.ipoib_ipv6_enabled_test

import data.rdmadoctor.rules.ipoib_ipv6_enabled as rule

# corpus 025: ib0 with global, ULA and link-local IPv6
ib0 := {"name": "ib0", "kind": "ipoib", "ipv6": [
	{"address": "2001:db8:0:0:214:5eff:fe15:8496/64", "scope": "global"},
	{"address": "fe80::202:c903:4e:47cf/64", "scope": "link"},
]}

test_fires_with_addresses if {
	fs := rule.findings with input as {"netdevs": [ib0]}
	count(fs) == 1
	some f in fs
	f.confidence == "low"
}

test_fires_on_disable_ipv6_zero if {
	fs := rule.findings with input as {
		"netdevs": [{"name": "ib0", "kind": "ipoib", "disable_ipv6": false}],
		"devices": [{"name": "mlx5_0", "ports": [{"number": 1, "netdev": "ib0"}]}],
	}
	some f in fs
	f.subject == {"netdev": "ib0", "device": "mlx5_0", "port": 1}
	not f.confidence
}

test_fires_warning_when_profile_disables if {
	fs := rule.findings with input as {"netdevs": [ib0], "profile": {"ipoib": {"ipv6": "disabled"}}}
	some f in fs
	f.severity == "warning"
}

test_no_finding_when_disabled if {
	count(rule.findings) == 0 with input as {"netdevs": [{"name": "ib0", "kind": "ipoib", "disable_ipv6": true}]}
}

test_no_finding_on_ethernet if {
	count(rule.findings) == 0 with input as {"netdevs": [object.union(ib0, {"name": "eth0", "kind": "ethernet"})]}
}

test_no_finding_when_profile_wants_ipv6 if {
	count(rule.findings) == 0 with input as {"netdevs": [ib0], "profile": {"ipoib": {"ipv6": "enabled"}}}
}
