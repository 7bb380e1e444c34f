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

	# /dev/mst/mt4115_pciconf1 names no device or PCI address without mst status: the finding
	# is the node's, and the fix names the mst device (never a guessed <pci>)
	f.subject == {}
	f.vars.mlxlink_device == "/dev/mst/mt4115_pciconf1"
	contains(f.message, "at most FDR")
}

test_fires_joined_by_mst_status_address if {
	fs := rule.findings with input as {
		"devices": [{"name": "mlx5_0", "ca_type": "MT4115", "pci_address": "0000:04:00.0", "ports": [{"number": 1}]}],
		"netdevs": [],
		"mlxlink": [{"device": "/dev/mst/mt4115_pciconf1", "pci_address": "0000:04:00.0", "port_type": "NETWORK", "speed": "IB-FDR", "supported_cable_speed": "FDR,FDR10,QDR,DDR,SDR"}],
	}
	some f in fs
	f.subject.device == "mlx5_0"
	f.subject.port == 1
	f.subject.pci == "0000:04:00.0"
}

# fixtures/mlxlink/cx5-ib-sdr-cable-speed-not-enabled.txt: `mlxlink -d mlx5_0 -p 1`, firmware 16.x
# (ConnectX-5, EDR), the cable SDR only and the Recommendation "Cable speed not enabled".
test_fires_cable_speed_not_enabled if {
	fs := rule.findings with input as {"devices": [], "netdevs": [], "mlxlink": [{
		"device": "mlx5_0", "port": 1, "port_type": "NETWORK", "state": "Active", "speed": "IB-SDR",
		"enabled_link_speed": "SDR", "supported_cable_speed": "SDR", "status_opcode": 25,
		"recommendation": "Cable speed not enabled", "firmware_version": "16.35.4506",
		"evidence": {"recommendation": {"source": "mlxlink", "path": "x", "line": 20, "text": "Recommendation                     : Cable speed not enabled"}},
	}]}
	count(fs) == 1
	some f in fs
	f.subject == {"device": "mlx5_0", "port": 1}
	contains(f.message, "ConnectX-5")
	contains(f.message, "Cable speed not enabled")
	some e in f.evidence
	e.line == 20
}

# mlxlink Ethernet: a 100G cable in a port enabled up to 200G (a ConnectX-7, code-index 56998082484).
test_fires_eth_cable_below_enabled_speeds if {
	fs := rule.findings with input as {"devices": [], "netdevs": [], "mlxlink": [{
		"device": "/dev/mst/mt4129_pciconf0", "port_type": "NETWORK", "state": "Active", "speed": "100G",
		"enabled_link_speed": "200G_2X,200G_4X,100G_1X,100G_2X,100G_4X,50G_1X,50G_2X,40G,25G,10G,1G",
		"supported_cable_speed": "100G_4X,50G_2X,40G,25G,10G,1G",
	}]}
	some f in fs
	contains(f.message, "at most 100G but the port is enabled for 200G")
}

# BlueField-3 (fixtures/mlxlink/bf3-100g-module-counters.txt): port enabled for 100G_4X, cable 100G.
test_no_eth_cable_matching_enabled_speeds if {
	count(rule.findings) == 0 with input as {"devices": [], "netdevs": [], "mlxlink": [{
		"device": "/dev/mst/mt41692_pciconf0", "port_type": "NETWORK", "state": "Active", "speed": "100G",
		"enabled_link_speed": "100G_4X", "supported_cable_speed": "100G_4X,50G_2X,40G,25G,10G,1G",
		"status_opcode": 0, "recommendation": "No issue was observed",
	}]}
}

# A 40G module in a ConnectX-3's 40/56GbE port is its normal module (56GbE is Mellanox's own rate).
test_no_qsfp_plus_in_cx3_56g_port if {
	count(rule.findings) == 0 with input as {"netdevs": [{"name": "enp1s0", "kind": "ethernet", "supported_link_modes": ["40000baseCR4/Full", "56000baseCR4/Full"], "module": qsfp_plus}]}
}

# Without link modes, the adapter model is a bound: low confidence.
test_fires_low_from_adapter_model if {
	fs := rule.findings with input as {
		"devices": [{"name": "mlx5_0", "ca_type": "MT4119", "pci_address": "0000:3b:00.0", "ports": [{"number": 1}]}],
		"netdevs": [{"name": "enp59s0f0", "kind": "ethernet", "pci_address": "0000:3b:00.0", "module": qsfp_plus}],
	}
	some f in fs
	f.confidence == "low"
	contains(f.message, "ConnectX-5 adapters have ports up to 100G")
}

test_no_finding_when_module_matches_port if {
	m := {"identifier": "QSFP28", "compliance": ["100G Ethernet: 100G Base-SR4 or 25GBase-SR"]}
	count(rule.findings) == 0 with input as {"netdevs": [{"name": "enp1s0f0np0", "kind": "ethernet", "max_supported_speed_mbps": 100000, "module": m}]}
}

test_no_finding_for_edr_cable_on_edr_adapter if {
	count(rule.findings) == 0 with input as {"mlxlink": [{"device": "/dev/mst/mt4115_pciconf1", "port_type": "NETWORK", "supported_cable_speed": "EDR,FDR,FDR10,QDR,DDR,SDR"}]}
}

# The adapter's own description (fixtures/mstconfig/cx5-e-query-hpe-doc-excerpt.txt style:
# "ConnectX-5 EN network interface card; 100GbE single-port ..."), joined by PCI slot: medium.
test_fires_medium_from_adapter_description if {
	fs := rule.findings with input as {
		"devices": [],
		"nvconfig": [{"device": "0000:3b:00.0", "pci_address": "0000:3b:00.0", "description": "ConnectX-5 EN network interface card; 100GbE single-port ..."}],
		"firmware": [],
		"mst_devices": [],
		"netdevs": [{"name": "enp59s0f1", "kind": "ethernet", "pci_address": "0000:3b:00.1", "module": qsfp_plus}],
	}
	some f in fs
	f.confidence == "medium"
	contains(f.message, "in a port of the ConnectX-5 EN network interface card; 100GbE single-port ... (100G)")
}

test_no_finding_from_description_of_a_40g_part if {
	count(rule.findings) == 0 with input as {
		"devices": [],
		"nvconfig": [],
		"firmware": [{"tool": "mlxfwmanager", "device": "/dev/mst/mt4103_pci_cr0", "pci_address": "0000:04:00.0", "description": "HP InfiniBand FDR/Ethernet 10Gb/40Gb 2-port 544+FLR-QSFP Adapter"}],
		"mst_devices": [],
		"netdevs": [{"name": "ens1", "kind": "ethernet", "pci_address": "0000:04:00.0", "module": qsfp_plus}],
	}
}
