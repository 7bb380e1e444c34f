package rdmadoctor.rules.rdma_driver_modules_missing_test

import data.rdmadoctor.rules.rdma_driver_modules_missing as rule

# corpus 111: `lsmod | grep mlx` on a Proxmox host with a broken MLNX_OFED build
ofed_only := [{"name": "mlxdevm"}, {"name": "mlxfw"}, {"name": "mlx_compat"}]

test_fires_without_core_driver if {
	fs := rule.findings with input as {"host": {"modules": ofed_only}}
	count(fs) == 1
	some f in fs
	f.subject == {}
	contains(f.message, "mlx_compat")
}

test_fires_when_pci_present_and_no_driver if {
	fs := rule.findings with input as {"host": {"modules": [{"name": "ext4"}]}, "pci": [{"address": "0000:01:00.0", "vendor_id": "15b3"}]}
	count(fs) == 1
}

test_fires_without_ib_uverbs if {
	mods := [{"name": "mlx5_core"}, {"name": "mlx5_ib"}, {"name": "ib_core"}]
	fs := rule.findings with input as {"host": {"modules": mods}, "devices": [{"name": "mlx5_0"}]}
	some f in fs
	f.vars.modules == ["ib_uverbs"]
}

test_no_finding_when_stack_loaded if {
	mods := [{"name": "mlx5_core"}, {"name": "mlx5_ib"}, {"name": "ib_core"}, {"name": "ib_uverbs"}]
	count(rule.findings) == 0 with input as {"host": {"modules": mods}, "devices": [{"name": "mlx5_0"}]}
}

test_no_finding_without_lsmod if {
	count(rule.findings) == 0 with input as {"host": {"modules": null}, "pci": [{"address": "0000:01:00.0", "vendor_id": "15b3"}]}
}

test_no_finding_without_mellanox_hardware if {
	count(rule.findings) == 0 with input as {"host": {"modules": [{"name": "ext4"}, {"name": "e1000e"}]}}
}

test_no_finding_when_used_by_shows_ib_uverbs if {
	# corpus 126: `lsmod | grep ipoib` lists ib_uverbs only among ib_core's users
	mods := [{"name": "ib_ipoib"}, {"name": "ib_core", "used_by": ["rdma_cm", "ib_ipoib", "ib_uverbs", "mlx5_ib"]}]
	count(rule.findings) == 0 with input as {"host": {"modules": mods}}
}
