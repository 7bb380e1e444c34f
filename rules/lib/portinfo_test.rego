package rdmadoctor.lib.portinfo_test

import data.rdmadoctor.lib.portinfo

# fixtures/ibportstate/cx3-query-1x-fdr10.txt with fixtures/ibstat/cx3-1x-fdr10.txt (LID 6).
blk := {"title": "CA/RT PortInfo", "latest": true, "lid": 6, "port_number": 1, "link_state": "Active", "width_active": 1, "speed_active": "FDR10"}

dev := {"name": "mlx4_0", "ca_type": "MT4099", "ports": [{"number": 1, "lid": 6, "state": "Active"}, {"number": 2, "lid": 0, "state": "Down"}]}

test_joined_by_lid if {
	portinfo.of_port(dev, dev.ports[0]) == blk with input as {"devices": [dev], "port_info": [blk]}
	not portinfo.of_port(dev, dev.ports[1]) with input as {"devices": [dev], "port_info": [blk]}
	dp := portinfo.device_port(blk) with input as {"devices": [dev], "port_info": [blk]}
	dp[1].number == 1
}

test_earlier_and_peer_blocks_do_not_count if {
	not portinfo.of_port(dev, dev.ports[0]) with input as {"devices": [dev], "port_info": [object.union(blk, {"latest": false})]}
	not portinfo.of_port(dev, dev.ports[0]) with input as {"devices": [dev], "port_info": [object.union(blk, {"peer": true})]}
}

test_top_lane if {
	portinfo.top_lane(["SDR", "DDR", "QDR", "FDR10", "FDR"]) == "FDR"
	not portinfo.top_lane([])
}
