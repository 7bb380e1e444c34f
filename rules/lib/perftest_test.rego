package rdmadoctor.lib.perftest_test

import data.rdmadoctor.lib.perftest

dev := {"name": "mlx5_0", "ports": [{"number": 1}, {"number": 2}]}

test_port_by_number_or_only_port if {
	perftest.port({"port": 2}, dev).number == 2
	not perftest.port({"port": null}, dev)
	perftest.port({"port": null}, {"name": "mlx4_0", "ports": [{"number": 1}]}).number == 1
}

test_device_by_name_not_captures if {
	perftest.device({"device": "mlx5_0"}).name == "mlx5_0" with input as {"devices": [dev]}
	not perftest.device({"device": "mlx5_0"}) with input as {"devices": [object.union(dev, {"capture": "after"})]}
	not perftest.device({"device": "mlx5_1"}) with input as {"devices": [dev]}
}

test_largest_and_smallest_rows if {
	perftest.largest({"bandwidth": [{"bytes": 2, "average_gbps": 0.1}, {"bytes": 65536, "average_gbps": 90}]}).bytes == 65536
	perftest.smallest({"latency": [{"bytes": 8, "typical_usec": 1.2}, {"bytes": 2, "typical_usec": 1.1}]}).bytes == 2
}

test_loopback_by_lid_or_gid if {
	perftest.loopback({"local": {"lid": 4}, "remote": {"lid": 4}})
	perftest.loopback({"local": {"lid": 0, "gid": "a"}, "remote": {"lid": 0, "gid": "a"}})
	perftest.across({"local": {"lid": 1}, "remote": {"lid": 4}})
	not perftest.across({"local": {"lid": 1}, "remote": null})
}

test_numbers_whole_or_not if {
	perftest.fmt1(40) == "40.0"
	perftest.fmt1(55.86) == "55.9"
	perftest.fmt2(7) == "7.00"
	perftest.fmt2(7.04) == "7.04"
}

test_subject_port_or_node if {
	perftest.subject({"device": "mlx5_0", "port": 2}, "m", []).subject == {"device": "mlx5_0", "port": 2} with input as {"devices": [dev]}
	perftest.subject({"device": "mlx5_9", "port": 2}, "m", []).subject == {} with input as {"devices": [dev]}
}
