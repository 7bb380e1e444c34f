package rdmadoctor.rules.roce_transport_retransmissions_test

import data.rdmadoctor.rules.roce_transport_retransmissions as rule

test_fires_on_mlx4_device_counters_delta if {
	dev := {
		"name": "mlx4_0", "capture": "node03_receiver",
		"hw_counters": {"rq_num_oos": 2235}, "hw_counter_deltas": {"rq_num_oos": 583},
		"ports": [{"number": 1, "counters": {"port_rcv_data": 1}}],
	}
	fs := rule.findings with input as {"sample": {"interval_seconds": 10}, "devices": [dev]}
	count(fs) == 1
	some f in fs
	f.confidence == "medium"
	contains(f.message, "rq_num_oos +583 in 10s")
	contains(f.message, "node03_receiver")
}

test_fires_on_mlx5_port_counters if {
	p := {"number": 1, "state": "Active", "link_layer": "Ethernet", "hw_counters": {"out_of_sequence": 6140236, "packet_seq_err": 929974, "local_ack_timeout_err": 91316}}
	fs := rule.findings with input as {"sample": null, "devices": [{"name": "mlx5_0", "ports": [p]}]}
	count(fs) == 1
	some f in fs
	f.severity == "warning"
	f.confidence == "low"
}

test_no_finding_when_counters_flat if {
	dev := {"name": "mlx4_0", "hw_counters": {"rq_num_oos": 1, "sq_num_oos": 1}, "hw_counter_deltas": {"rq_num_oos": 0, "sq_num_oos": 0}, "ports": []}
	count(rule.findings) == 0 with input as {"sample": {"interval_seconds": 10}, "devices": [dev]}
}

test_no_finding_on_infiniband if {
	p := {"number": 1, "state": "Active", "link_layer": "InfiniBand", "hw_counters": {"out_of_sequence": 50000}}
	count(rule.findings) == 0 with input as {"sample": null, "devices": [{"name": "mlx5_0", "ports": [p]}]}
}
