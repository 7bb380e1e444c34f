package rdmadoctor.rules.link_speed_degraded_test

import data.rdmadoctor.rules.link_speed_degraded as rule

# corpus 018: ConnectX-4 Active at 56 with an FDR cable (ibstat prints no width)
fdr := {"number": 1, "state": "Active", "physical_state": "LinkUp", "rate_gbps": 56, "link_layer": "InfiniBand"}

test_fires_fdr_on_edr_adapter if {
	fs := rule.findings with input as {"devices": [{"name": "ibp4s0", "ca_type": "MT4115", "ports": [fdr]}]}
	count(fs) == 1
	some f in fs
	contains(f.message, "FDR")
	not f.severity
}

test_fires_error_for_qdr_on_hdr if {
	p := {"number": 1, "state": "Active", "rate_gbps": 40, "width_lanes": 4, "lane_speed": "QDR", "link_layer": "InfiniBand"}
	fs := rule.findings with input as {"devices": [{"name": "mlx5_0", "ca_type": "MT4123", "ports": [p]}]}
	some f in fs
	f.severity == "error"
}

test_no_finding_for_hdr100_rate_without_width if {
	# Rate 100 on a ConnectX-6 can be HDR100 (2X HDR): not degraded
	p := object.union(fdr, {"rate_gbps": 100})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ca_type": "MT4123", "ports": [p]}]}
}

test_no_finding_for_ddr_connectx if {
	# corpus 118/010: MT25418 runs DDR natively
	p := object.union(fdr, {"rate_gbps": 20})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx4_0", "ca_type": "MT25418", "ports": [p]}]}
}

test_no_finding_for_unknown_adapter if {
	# corpus 123: ibstatus has no CA type
	p := object.union(fdr, {"rate_gbps": 20})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx4_0", "ports": [p]}]}
}

test_no_finding_for_ethernet if {
	p := object.union(fdr, {"link_layer": "Ethernet", "rate_gbps": 40})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx4_0", "ca_type": "MT4099", "ports": [p]}]}
}

test_no_finding_when_iblinkinfo_shows_no_could_be if {
	# corpus 043: ConnectX-3 at QDR behind a QDR switch, iblinkinfo has no "Could be" hint
	p := {"number": 1, "state": "Active", "rate_gbps": 40, "width_lanes": 4, "lane_speed": "QDR", "link_layer": "InfiniBand", "lid": 12}
	count(rule.findings) == 0 with input as {
		"devices": [{"name": "mlx4_0", "ca_type": "MT4099", "ports": [p]}],
		"fabric": {"links": [{"lid": 3, "port": 17, "peer_lid": 12, "peer_port": 1, "speed_gbps": 10}]},
	}
}

test_fires_high_with_could_be if {
	p := {"number": 1, "state": "Active", "rate_gbps": 100, "width_lanes": 4, "lane_speed": "EDR", "link_layer": "InfiniBand", "lid": 12}
	fs := rule.findings with input as {
		"devices": [{"name": "mlx5_0", "ca_type": "MT4123", "ports": [p]}],
		"fabric": {"links": [{"lid": 3, "port": 17, "peer_lid": 12, "peer_port": 1, "could_be": "Could be 53.125 Gbps"}]},
	}
	some f in fs
	f.confidence == "high"
}

test_fires_info_for_connectx3_at_qdr_without_peer_view if {
	# corpus 038: a QDR node with no fabric view; QDR-only ConnectX-3 parts share the CA type
	p := {"number": 1, "state": "Active", "rate_gbps": 40, "width_lanes": 4, "lane_speed": "QDR", "link_layer": "InfiniBand", "lid": 12}
	fs := rule.findings with input as {"devices": [{"name": "mlx4_0", "ca_type": "MT4099", "ports": [p]}]}
	some f in fs
	f.severity == "info"
	f.confidence == "low"
}

# fixtures/mlxlink/cx5-ib-sdr-cable-speed-not-enabled.txt: `mlxlink -d mlx5_0 -p 1` alone.
sdr := {
	"device": "mlx5_0", "port": 1, "port_type": "NETWORK", "state": "Active", "physical_state": "LinkUp",
	"speed": "IB-SDR", "width_lanes": 4, "enabled_link_speed": "SDR", "supported_cable_speed": "SDR",
	"status_opcode": 25, "recommendation": "Cable speed not enabled", "firmware_version": "16.35.4506",
}

test_fires_from_mlxlink_speed if {
	fs := rule.findings with input as {"devices": [], "mlxlink": [sdr], "fabric": {}, "port_info": []}
	count(fs) == 1
	some f in fs
	f.subject == {"device": "mlx5_0", "port": 1}
	f.severity == "error" # SDR on an EDR adapter: five generations
	contains(f.message, "Active at SDR (4X) but the ConnectX-5 (MT4119) supports EDR")
	contains(f.message, "Cable speed not enabled")
}

test_no_mlxlink_finding_when_the_port_rate_is_known if {
	# corpus 018: ibstat gives the ConnectX-4's rate; the unjoined mlxlink must not repeat it
	d := {"name": "ibp4s0", "ca_type": "MT4115", "ports": [{"number": 1, "state": "Active", "link_layer": "InfiniBand", "rate_gbps": 56}]}
	ml := {"device": "/dev/mst/mt4115_pciconf1", "port_type": "NETWORK", "state": "Active", "speed": "IB-FDR"}
	fs := rule.findings with input as {"devices": [d], "mlxlink": [ml], "fabric": {}, "port_info": []}
	count(fs) == 1
	some f in fs
	f.subject.device == "ibp4s0"
}

test_fires_from_mlxlink_opcode_speed_degradation if {
	ml := {"device": "0000:3b:00.0", "pci_address": "0000:3b:00.0", "port_type": "NETWORK", "state": "Active", "speed": "100G", "status_opcode": 34, "recommendation": "Speed degradation"}
	fs := rule.findings with input as {"devices": [], "mlxlink": [ml], "fabric": {}, "port_info": []}
	some f in fs
	f.subject == {"pci": "0000:3b:00.0"}
}

# fixtures/ibportstate/cx3-query-1x-fdr10.txt: FDR supported and enabled, the link runs FDR10.
blk := {
	"title": "CA/RT PortInfo", "latest": true, "lid": 6, "port_number": 1, "link_state": "Active", "phys_link_state": "LinkUp",
	"width_supported": [1, 4], "width_enabled": [1], "width_active": 1,
	"speed_supported": ["SDR", "DDR", "QDR", "FDR10", "FDR"], "speed_enabled": ["SDR", "DDR", "QDR", "FDR10", "FDR"], "speed_active": "FDR10",
}

cx3 := {"name": "mlx4_0", "ca_type": "MT4099", "ports": [{"number": 1, "state": "Active", "physical_state": "LinkUp", "rate_gbps": 10, "lane_speed": "FDR10", "lid": 6, "link_layer": "InfiniBand"}]}

test_fires_could_be_from_ibportstate if {
	fs := rule.findings with input as {"devices": [cx3], "mlxlink": [], "fabric": {}, "port_info": [blk]}
	count(fs) == 1
	some f in fs
	f.subject.device == "mlx4_0"
	f.confidence == "medium"
	contains(f.message, "Active at FDR10 although FDR is supported and enabled")
}

test_fires_info_when_speed_limited_by_configuration if {
	b := object.union(blk, {"speed_enabled": ["SDR", "DDR", "QDR"], "speed_active": "QDR"})
	fs := rule.findings with input as {"devices": [], "mlxlink": [], "fabric": {}, "port_info": [b]}
	some f in fs
	f.severity == "info"
	contains(f.message, "limited by configuration")
}

test_no_ibportstate_finding_at_the_fastest_speed if {
	b := object.union(blk, {"speed_active": "FDR"})
	count(rule.findings) == 0 with input as {"devices": [], "mlxlink": [], "fabric": {}, "port_info": [b]}
}

# fixtures/iblinkinfo/quantum-switch-could-be.txt: a Quantum switch's EDR-speed links to HDR HCAs.
could_be_link := {
	"node_guid": "0x08c0eb0300add04e", "node_description": "Quantum Mellanox Technologies", "lid": 10, "port": 21,
	"width_lanes": 4, "speed_gbps": 25.78125, "state": "Active", "physical_state": "LinkUp",
	"peer_lid": 40, "peer_port": 1, "peer_description": "node3 HCA-2", "could_be": "Could be 53.125 Gbps",
	"evidence": {"source": "iblinkinfo", "path": "iblinkinfo", "line": 22, "text": `          10   21[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>      40    1[  ] "node3 HCA-2" ( Could be 53.125 Gbps)`},
}

test_fires_on_a_switch_port_iblinkinfo_says_could_be_faster if {
	fs := rule.findings with input as {"fabric": {"links": [could_be_link]}}
	count(fs) == 1
	some f in fs
	f.subject == {"node_guid": "0x08c0eb0300add04e", "node_description": "Quantum Mellanox Technologies", "port": 21}
	contains(f.message, "iblinkinfo: Could be 53.125 Gbps")
}

# the far end is this host's Active port (LID 40): the host's own finding covers the link
test_no_switch_finding_when_the_peer_is_a_local_port if {
	devs := [{"name": "mlx5_0", "ports": [{"number": 1, "lid": 40, "state": "Active"}]}]
	fs := rule.findings with input as {"fabric": {"links": [could_be_link]}, "devices": devs}
	count([f | some f in fs; f.subject.node_guid]) == 0
}
