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
