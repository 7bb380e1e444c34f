package rdmadoctor.lib.port_test

import data.rdmadoctor.lib.port

dev := {"name": "mlx5_0", "ports": [{"number": 1, "state": "Active"}, {"number": 2, "state": "Down", "physical_state": "Polling"}]}

test_spare_port_next_to_active_one if {
	port.uncabled_spare(dev, dev.ports[1]) with input as {"devices": [dev]}
	not port.other_port_active(dev, dev.ports[1]) with input as {"devices": [object.union(dev, {"ports": [dev.ports[1]]})]}
}

test_in_use_by_netdev_address if {
	port.in_use(dev, dev.ports[1]) with input as {"devices": [dev], "netdevs": [{"name": "ib1", "rdma_device": "mlx5_0", "rdma_port": 2, "admin_up": true, "ipv4": ["192.0.2.2/24"]}]}
	not port.in_use(dev, dev.ports[1]) with input as {"devices": [dev], "netdevs": [{"name": "ib1", "rdma_device": "mlx5_0", "rdma_port": 2, "admin_up": false, "ipv4": ["192.0.2.2/24"]}]}
}

test_in_use_by_moving_counters if {
	port.in_use(dev, {"number": 2, "counter_deltas": {"port_rcv_data": 10}}) with input as {}
}
