package rdmadoctor.rules.rdma_receive_not_ready_test

import data.rdmadoctor.rules.rdma_receive_not_ready as rule

test_fires_on_out_of_buffer_delta if {
	p := {"number": 1, "hw_counters": {"out_of_buffer": 91822, "rnr_nak_retry_err": 7781}, "counter_deltas": {"out_of_buffer": 50, "rnr_nak_retry_err": 0}}
	fs := rule.findings with input as {"sample": {"interval_seconds": 10}, "devices": [{"name": "mlx5_0", "ports": [p]}], "netdevs": []}
	count(fs) == 1
	some f in fs
	contains(f.message, "out_of_buffer +50 in 10s")
}

test_fires_on_rdma_netdev if {
	inp := {"sample": null, "devices": [{"name": "mlx5_0", "ports": [{"number": 1, "netdev": "ens1f0np0"}]}], "netdevs": [{"name": "ens1f0np0", "stats": {"rx_out_of_buffer": 990473555}}]}
	fs := rule.findings with input as inp
	some f in fs
	f.subject.device == "mlx5_0"
	f.confidence == "low"
}

test_no_finding_on_netdev_without_rdma_port if {
	count(rule.findings) == 0 with input as {"sample": null, "devices": [], "netdevs": [{"name": "eth0", "stats": {"rx_out_of_buffer": 990473555}}]}
}

test_no_finding_on_flush_errors if {
	# flushed WQEs at teardown are not RNR
	p := {"number": 1, "hw_counters": {"resp_cqe_flush_error": 5000, "out_of_buffer": 0}}
	count(rule.findings) == 0 with input as {"sample": null, "devices": [{"name": "mlx5_0", "ports": [p]}], "netdevs": []}
}
