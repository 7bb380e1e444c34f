package rdmadoctor.lib.stats_test

import data.rdmadoctor.lib.stats

nd := {
	"name": "eth0",
	"stats": {"rx_discards_phy": 500},
	"stats_deltas": {"rx_discards_phy": 7},
	"evidence": {"stats.rx_discards_phy": {"line": 3, "text": "rx_discards_phy: 500"}},
}

test_netdev_delta_with_sample if {
	r := stats.netdev(nd, "rx_discards_phy") with input as {"sample": {"interval_seconds": 10}}
	r.delta
	r.value == 7
	stats.describe("rx_discards_phy", r) == "rx_discards_phy +7 in 10s" with input as {"sample": {"interval_seconds": 10}}
}

test_netdev_absolute_without_sample if {
	r := stats.netdev(nd, "rx_discards_phy") with input as {"sample": null}
	not r.delta
	r.value == 500
	stats.confidence(r) == "low"
	count(r.evidence) == 1
}

test_device_hw if {
	dev := {"name": "mlx4_0", "hw_counters": {"sq_num_oos": 7638}, "hw_counter_deltas": {"sq_num_oos": 103}}
	r := stats.device_hw(dev, "sq_num_oos") with input as {"sample": {"interval_seconds": 10}}
	r.value == 103
	stats.over(r, [0, 100])
}

test_port_hw_ignores_portcounter_deltas if {
	p := {"counters": {"port_xmit_data": 5}, "counter_deltas": {"port_xmit_data": 5}}
	not stats.port_hw(p, "port_xmit_data") with input as {"sample": {"interval_seconds": 10}}
}

test_unique_evidence if {
	e := {"line": 1, "text": "x"}
	stats.unique_evidence([{"evidence": [e]}, {"evidence": [e, {"line": 2, "text": "y"}]}]) == [e, {"line": 2, "text": "y"}]
}
