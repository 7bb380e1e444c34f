package rdmadoctor.rules.module_speed_below_port_capability_test

import data.rdmadoctor.rules.module_speed_below_port_capability as rule

qsfp_plus := {"identifier": "QSFP+", "compliance": ["40G Ethernet: 40G Base-SR4"], "nominal_bit_rate_mbps": 10300}

test_fires_qsfp_plus_in_100g_port if {
	fs := rule.findings with input as {"netdevs": [{"name": "enp1s0f0np0", "kind": "ethernet", "max_supported_speed_mbps": 100000, "module": qsfp_plus}]}
	count(fs) == 1
}

test_fires_fdr_cable_on_edr_adapter if {
	# corpus 017/018: mlxlink Supported Cable Speed FDR,FDR10,QDR,DDR,SDR on a ConnectX-4
	fs := rule.findings with input as {
		"devices": [{"name": "ibp4s0", "ca_type": "MT4115", "ports": [{"number": 1}]}],
		"mlxlink": [{"device": "/dev/mst/mt4115_pciconf1", "port_type": "NETWORK", "speed": "IB-FDR", "supported_cable_speed": "FDR,FDR10,QDR,DDR,SDR"}],
	}
	some f in fs
	f.subject == {"device": "ibp4s0", "port": 1}
	contains(f.message, "at most FDR")
}

test_no_finding_when_module_matches_port if {
	m := {"identifier": "QSFP28", "compliance": ["100G Ethernet: 100G Base-SR4 or 25GBase-SR"]}
	count(rule.findings) == 0 with input as {"netdevs": [{"name": "enp1s0f0np0", "kind": "ethernet", "max_supported_speed_mbps": 100000, "module": m}]}
}

test_no_finding_for_edr_cable_on_edr_adapter if {
	count(rule.findings) == 0 with input as {"mlxlink": [{"device": "/dev/mst/mt4115_pciconf1", "port_type": "NETWORK", "supported_cable_speed": "EDR,FDR,FDR10,QDR,DDR,SDR"}]}
}
