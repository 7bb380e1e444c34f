package rdmadoctor.lib.module_test

import data.rdmadoctor.lib.module

test_module_speed_from_compliance_or_identifier if {
	module.max_gbps({"identifier": "QSFP28", "compliance": ["100G Ethernet: 100G Base-SR4 or 25GBase-SR"]}) == 100
	module.max_gbps({"identifier": "QSFP+", "compliance": ["40G Ethernet: 40G Base-CR4"]}) == 40
	module.max_gbps({"identifier": "QSFP28"}) == 100
	not module.max_gbps({"identifier": "SFP"})
}

test_port_speed_from_link_modes if {
	module.port_max_gbps({"supported_link_modes": ["10000baseKX4/Full", "40000baseSR4/Full"]}) == 40
	module.port_max_gbps({"max_supported_speed_mbps": 100000}) == 100
}
