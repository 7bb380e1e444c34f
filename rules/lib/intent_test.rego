package rdmadoctor.lib.intent_test

import data.rdmadoctor.lib.intent

dev := {"name": "mlx5_0", "pci_address": "0000:81:00.0", "ports": []}

test_port_overrides_device_overrides_node if {
	prof := {"fabric": "ethernet", "devices": {"mlx5_0": {"fabric": "IB", "ports": {"2": {"fabric": "eth"}}}}}
	intent.fabric(dev, {"number": 1}) == "ib" with input as {"profile": prof}
	intent.fabric(dev, {"number": 2}) == "ethernet" with input as {"profile": prof}
	intent.fabric({"name": "mlx5_9"}, {"number": 1}) == "ethernet" with input as {"profile": prof}
}

test_device_by_pci_address if {
	intent.fabric(dev, {"number": 1}) == "ib" with input as {"profile": {"devices": {"0000:81:00.0": {"fabric": "infiniband"}}}}
}

test_no_profile_no_intent if {
	not intent.fabric(dev, {"number": 1}) with input as {"profile": null}
}

test_unused_port if {
	intent.unused(dev, {"number": 2}) with input as {"profile": {"devices": {"mlx5_0": {"ports": {"2": {"unused": true}}}}}}
}
