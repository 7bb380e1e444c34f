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
