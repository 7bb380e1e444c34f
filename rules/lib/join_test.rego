package rdmadoctor.lib.join_test

import data.rdmadoctor.lib.join

test_pci_from_netdev if {
	join.pci({"name": "mlx5_0"}) == "0000:81:00.0" with input as {"netdevs": [{"name": "ib0", "rdma_device": "mlx5_0", "pci_address": "0000:81:00.0"}]}
}

test_pci_from_sole_mellanox_function if {
	join.pci({"name": "mlx5_0"}) == "0000:81:00.0" with input as {
		"devices": [{"name": "mlx5_0"}],
		"pci": [{"address": "0000:81:00.0", "vendor_id": "15b3"}, {"address": "0000:00:02.0", "vendor_id": "8086"}],
	}
}

test_no_pci_guess_with_two_devices if {
	join.pci({"name": "mlx5_0"}) == "" with input as {
		"devices": [{"name": "mlx5_0"}, {"name": "mlx5_1"}],
		"pci": [{"address": "0000:81:00.0", "vendor_id": "15b3"}],
	}
}

test_netdev_name_by_rdma_port if {
	join.netdev_name({"name": "mlx5_0"}, {"number": 2}) == "ib1" with input as {"netdevs": [
		{"name": "ib0", "rdma_device": "mlx5_0", "rdma_port": 1},
		{"name": "ib1", "rdma_device": "mlx5_0", "rdma_port": 2},
	]}
}

test_nvconfig_by_mst_path if {
	q := {"device": "/dev/mst/mt4115_pciconf0", "params": {}}
	join.nvconfig({"name": "mlx5_0", "pci_address": "0000:81:00.0"}) == q with input as {
		"nvconfig": [q],
		"mst_devices": [{"path": "/dev/mst/mt4115_pciconf0", "pci_address": "0000:81:00.0"}],
	}
}

# The first claim by device name and port number wins; a VF's port comes after its PF's, and a
# second capture of a device claims nothing.
test_port_of_netdev_first_claim if {
	inp := {"devices": [
		{"name": "mlx5_2", "ports": [{"number": 1, "netdev": "ib0"}]},
		{"name": "mlx5_0", "ports": [{"number": 2, "netdev": "ib0"}, {"number": 1, "netdev": "ib0"}]},
		{"name": "mlx5_1", "ports": [{"number": 1, "netdev": "ib1"}]},
		{"name": "mlx5_0", "capture": "node02", "ports": [{"number": 1, "netdev": "ib2"}]},
	]}
	[dev, p] := join.port_of_netdev("ib0") with input as inp
	dev.name == "mlx5_0"
	p.number == 1
	[dev1, _] := join.port_of_netdev("ib1") with input as inp
	dev1.name == "mlx5_1"
	not join.port_of_netdev("ib2") with input as inp
	not join.port_of_netdev("ib9") with input as inp
}
