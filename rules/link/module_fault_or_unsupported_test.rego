package rdmadoctor.rules.module_fault_or_unsupported_test

import data.rdmadoctor.rules.module_fault_or_unsupported as rule

test_fires_on_kernel_module_error if {
	ev := {"kind": "module_error", "driver": "mlx5_core", "pci_address": "0000:3b:00.0", "evidence": {"line": 7, "text": "mlx5_core 0000:3b:00.0: Port module event[error]: module 0, Cable error, Power budget exceeded"}}
	fs := rule.findings with input as {"host": {"kernel_events": [ev]}, "devices": [{"name": "mlx5_0", "pci_address": "0000:3b:00.0", "ports": []}], "netdevs": []}
	count(fs) == 1
	some f in fs
	f.subject.device == "mlx5_0"
}

test_fires_on_module_counters if {
	nd := {"name": "ens1f0np0", "kind": "ethernet", "stats": {"module_bus_stuck": 0, "module_high_temp": 3, "module_unplug": 2}}
	fs := rule.findings with input as {"sample": null, "host": {}, "devices": [], "netdevs": [nd]}
	count(fs) == 1
}

test_no_finding_on_unplug_or_dark_io_error if {
	# a cage without a cable answers EIO too (link down): not a fault
	nd := {"name": "ens1f0np0", "kind": "ethernet", "link_detected": false, "stats": {"module_unplug": 2}, "module": {"unreadable": "Input/output error"}}
	count(rule.findings) == 0 with input as {"sample": null, "host": {}, "devices": [], "netdevs": [nd]}
}

test_no_finding_on_hexdump_fallback if {
	nd := {"name": "ens1f0", "kind": "ethernet", "link_detected": true, "module": {"unreadable": "hexdump only"}}
	count(rule.findings) == 0 with input as {"sample": null, "host": {}, "devices": [], "netdevs": [nd]}
}

test_fires_on_unreadable_eeprom_with_link_up if {
	nd := {"name": "enp4s0", "kind": "ethernet", "driver": "mlx4_en", "link_detected": true, "module": {"unreadable": "Input/output error"}}
	count(rule.findings) == 1 with input as {"sample": null, "host": {}, "devices": [], "netdevs": [nd]}
}

test_no_finding_when_driver_has_no_module_ops if {
	# virtio and many VM NICs answer "netlink error: Operation not supported" to ethtool -m
	nd := {"name": "eth0", "kind": "ethernet", "driver": "virtio_net", "link_detected": true, "module": {"unreadable": "netlink error: Operation not supported"}}
	count(rule.findings) == 0 with input as {"sample": null, "host": {}, "devices": [], "netdevs": [nd]}
}

test_no_finding_on_non_rdma_netdev if {
	nd := {"name": "eno1", "kind": "ethernet", "driver": "igb", "link_detected": true, "module": {"unreadable": "Input/output error"}}
	count(rule.findings) == 0 with input as {"sample": null, "host": {}, "devices": [], "netdevs": [nd]}
}

# mlxlink's firmware view: opcode 1032 (Power budget exceeded) on a port that is down.
test_fires_from_mlxlink_module_opcode if {
	fs := rule.findings with input as {"devices": [], "netdevs": [], "host": {}, "mlxlink": [{
		"device": "/dev/mst/mt4119_pciconf0", "port_type": "NETWORK", "state": "Down",
		"status_opcode": 1032, "recommendation": "Power budget exceeded", "cable_pn": "MMA1B00-C100D", "cable_vendor": "Mellanox",
	}]}
	some f in fs
	contains(f.message, "Status Opcode 1032: Power budget exceeded (Power budget exceeded); cable Mellanox MMA1B00-C100D")
	f.vars.mlxlink_device == "/dev/mst/mt4119_pciconf0"
}

test_no_mlxlink_finding_when_healthy if {
	count(rule.findings) == 0 with input as {"devices": [], "netdevs": [], "host": {}, "mlxlink": [{
		"device": "/dev/mst/mt41692_pciconf0", "port_type": "NETWORK", "state": "Active", "status_opcode": 0, "recommendation": "No issue was observed",
	}]}
}

# corpus 115 (Mellanox/mstflint#33): mlx4's module query answered "cable is not connected".
test_fires_on_mlx4_cable_not_connected if {
	ev := {"kind": "cable_not_connected", "driver": "mlx4_core", "pci_address": "0000:04:00.0", "evidence": {"source": "dmesg", "line": 1, "text": "mlx4_core 0000:04:00.0: MLX4_CMD_MAD_IFC Get Module info attr(ff60) port(1) i2c_addr(50) offset(0) size(2): Response Mad Status(31c) - cable is not con"}}
	nd := {"name": "enp4s0", "module": {"unreadable": "Input/output error", "evidence": {"unreadable": {"source": "ethtool_module", "line": 1, "text": "Cannot get module EEPROM information: Input/output error"}}}}
	fs := rule.findings with input as {"host": {"kernel_events": [ev]}, "netdevs": [nd]}
	count(fs) == 1
	some f in fs
	f.severity == "warning"
	f.subject.pci == "0000:04:00.0"
	contains(f.message, "(MAD_IFC Response Mad Status(31c): cable is not connected)")
	count(f.evidence) == 2
}

test_no_cable_finding_for_other_events if {
	ev := {"kind": "module_plugged", "pci_address": "0000:04:00.0", "evidence": {"text": "x"}}
	count(rule.findings) == 0 with input as {"host": {"kernel_events": [ev]}}
}
