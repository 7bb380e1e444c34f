package rdmadoctor.rules.link_width_degraded_test

import data.rdmadoctor.rules.link_width_degraded as rule

one_x := {"number": 1, "state": "Active", "physical_state": "LinkUp", "rate_gbps": 25, "width_lanes": 1, "lane_speed": "EDR", "link_layer": "InfiniBand"}

test_fires_1x_on_connectx5 if {
	fs := rule.findings with input as {"devices": [{"name": "mlx5_0", "ca_type": "MT4119", "ports": [one_x]}]}
	count(fs) == 1
	some f in fs
	not f.confidence
}

test_fires_2x_on_edr_adapter_medium if {
	p := object.union(one_x, {"width_lanes": 2, "rate_gbps": 50})
	fs := rule.findings with input as {"devices": [{"name": "mlx5_0", "ca_type": "MT4115", "ports": [p]}]}
	some f in fs
	f.confidence == "medium"
}

test_no_finding_for_hdr100 if {
	p := object.union(one_x, {"width_lanes": 2, "rate_gbps": 100, "lane_speed": "HDR"})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ca_type": "MT4123", "ports": [p]}]}
}

test_no_finding_for_roce_1x if {
	# corpus 107: 10GbE through a QSA adapter reads "10 Gb/sec (1X QDR)" on an Ethernet port
	p := object.union(one_x, {"link_layer": "Ethernet", "rate_gbps": 10, "lane_speed": "QDR"})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx4_0", "ports": [p]}]}
}

test_no_finding_when_down if {
	p := object.union(one_x, {"state": "Down", "physical_state": "Polling"})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ca_type": "MT4119", "ports": [p]}]}
}

fabric_link(w, enabled) := {"ports": [
	{
		"node_guid": "0xfc6a1c030091cf40", "node_description": "Quantum-2 Mellanox Technologies", "node_type": "Switch", "port": 9, "label": "1/5/1",
		"state": "Active", "width_lanes": w, "enabled_widths": enabled,
		"peer_guid": "0xc470bd0300100612", "peer_label": "B143D0F0/0/0/1", "peer_description": "node25 mlx5_9",
		"evidence": {"width_lanes": {"source": "ibdiagnet2_net_dump", "path": "ibdiagnet2.net_dump", "line": 300, "text": "  1/5/1 : 9 : ACT : LINK UP : 5 : 2x : 100 ..."}},
	},
	{"node_guid": "0xc470bd0300100612", "node_type": "CA", "port": 1, "state": "Active", "width_lanes": w, "enabled_widths": [1, 2, 4]},
]}

test_fires_on_a_fabric_link_narrower_than_both_ends_enable if {
	fs := rule.findings with input as {"fabric": fabric_link(2, [1, 2, 4])}
	count(fs) == 2 # the switch port and the CA port
	some f in fs
	f.subject.node_guid == "0xfc6a1c030091cf40"
	contains(f.message, "is Active at 2X while both ends allow 4X")
}

# a split (2x) port of a Quantum switch has 2x alone enabled: 2X is its design
test_no_finding_on_a_split_fabric_port if {
	fs := rule.findings with input as {"fabric": fabric_link(2, [2])}
	count([f | some f in fs; f.subject.node_guid == "0xfc6a1c030091cf40"]) == 0
}

# fixtures/ibstat/cx3-1x-fdr-width-set.txt: ConnectX-3 port 1 Active at "Rate: 14" (no width printed).
cx3 := {"name": "mlx4_0", "ca_type": "MT4099", "ports": [{"number": 1, "state": "Active", "physical_state": "LinkUp", "rate_gbps": 14, "lid": 6, "link_layer": "InfiniBand"}]}

test_fires_1x_from_ibstat_rate_alone if {
	fs := rule.findings with input as {"devices": [cx3], "port_info": []}
	some f in fs
	f.confidence == "medium"
	contains(f.message, "which only 1X FDR gives")
}

test_no_width_from_ambiguous_ibstat_rate if {
	# "Rate: 10" is 4X SDR as well as 1X QDR
	d := json.patch(cx3, [{"op": "replace", "path": "/ports/0/rate_gbps", "value": 10}])
	count(rule.findings) == 0 with input as {"devices": [d], "port_info": []}
}

# fixtures/ibportstate/cx3-query-1x-fdr10.txt: LinkWidthEnabled 1X on a 1X-or-4X port - set on purpose.
blk := {
	"title": "CA/RT PortInfo", "latest": true, "lid": 6, "port_number": 1, "link_state": "Active", "phys_link_state": "LinkUp",
	"width_supported": [1, 4], "width_enabled": [1], "width_active": 1,
	"speed_supported": ["SDR", "DDR", "QDR", "FDR10", "FDR"], "speed_enabled": ["SDR", "DDR", "QDR", "FDR10", "FDR"], "speed_active": "FDR10",
}

test_fires_info_when_width_limited_by_configuration if {
	fs := rule.findings with input as {"devices": [cx3], "port_info": [blk]}
	count(fs) == 1
	some f in fs
	f.severity == "info"
	f.subject.device == "mlx4_0"
	contains(f.message, "LinkWidthEnabled is 1X")
}

test_fires_could_be_when_trained_below_enabled if {
	b := object.union(blk, {"width_enabled": [1, 4]})
	fs := rule.findings with input as {"devices": [], "port_info": [b]}
	some f in fs
	f.confidence == "medium"
	contains(f.message, "could be 4X")
}

test_no_portinfo_finding_when_down if {
	# corpus 029's block: Down / Polling right after enable, LinkWidthActive 4X
	b := object.union(blk, {"link_state": "Down", "phys_link_state": "Polling", "width_enabled": [1, 4], "width_active": 4})
	count(rule.findings) == 0 with input as {"devices": [], "port_info": [b]}
}
