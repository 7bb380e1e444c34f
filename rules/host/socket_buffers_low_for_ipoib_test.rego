package rdmadoctor.rules.socket_buffers_low_for_ipoib_test

import data.rdmadoctor.rules.socket_buffers_low_for_ipoib as rule

ib0 := {"name": "ib0", "kind": "ipoib", "admin_up": true, "ipv4": ["10.0.0.1/24"]}

test_fires_with_default_buffers_and_ipoib_in_use if {
	inp := {"netdevs": [ib0], "host": {"sysctls": {"net.core.rmem_max": "212992", "net.core.wmem_max": "212992"}}}
	fs := rule.findings with input as inp
	count(fs) == 1
	some f in fs
	contains(f.message, "net.core.rmem_max = 212992 and net.core.wmem_max = 212992")
}

test_no_finding_when_tuned if {
	inp := {"netdevs": [ib0], "host": {"sysctls": {"net.core.rmem_max": "4194304", "net.core.wmem_max": "4194304"}}}
	count(rule.findings) == 0 with input as inp
}

test_no_finding_without_ipoib_address if {
	nd := {"name": "ib0", "kind": "ipoib", "admin_up": true}
	count(rule.findings) == 0 with input as {"netdevs": [nd], "host": {"sysctls": {"net.core.rmem_max": "212992"}}}
}
