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

# fixtures/ibstatus/sys-files-not-found.txt (clustervision/trinity#219)
ibstatus_refusal := {"tool": "ibstatus", "message": "Fatal error:  device '*': sys files not found (/sys/class/infiniband/*/ports)", "evidence": {"line": 1}}

cx4 := {"address": "0000:03:00.0", "vendor_id": "15b3", "name": "Mellanox Technologies MT27710 Family [ConnectX-4 Lx]", "vf": false, "evidence": {"address": {"line": 1}}}

test_fires_without_lsmod_on_pci_and_no_device if {
	fs := rule.findings with input as {"host": {"modules": null, "userspace": [ibstatus_refusal]}, "pci": [cx4], "devices": []}
	count(fs) == 1
	some f in fs
	contains(f.message, "a Mellanox function is on PCI (0000:03:00.0)")
	contains(f.message, "sys files not found")
}

test_no_finding_when_the_kernel_log_names_a_failed_probe if {
	# corpus 116: rdma-device-probe-failed says it, with the kernel's error
	probe := {"kind": "probe_failed", "driver": "mlx5_core", "pci_address": "0000:03:00.0", "evidence": {"line": 6}}
	count(rule.findings) == 0 with input as {"host": {"modules": null, "userspace": [ibstatus_refusal], "kernel_events": [probe]}, "pci": [cx4], "devices": []}
	count(rule.findings) == 0 with input as {"host": {"modules": [{"name": "ext4"}], "kernel_events": [probe]}, "pci": [cx4]}
}

test_no_finding_for_a_refusal_that_is_not_no_device if {
	# corpus 002: ibstat stopped at one device; others may be listed
	r := {"tool": "ibstat", "message": "ibpanic: [1323906] main: stat of IB device 'mlx5_8' failed: No such file or directory", "evidence": {"line": 9}}
	count(rule.findings) == 0 with input as {"host": {"modules": null, "userspace": [r]}, "pci": [cx4], "devices": []}
}

test_fires_on_the_grep_mlx_excerpt if {
	# the same excerpt saved as lsmod_grep_mlx: its filter covers mlx5_core and mlx4_core
	fs := rule.findings with input as {"host": {"modules": ofed_only, "modules_filter": "mlx"}}
	count(fs) == 1
}

test_no_finding_from_an_excerpt_of_unknown_filter if {
	# the excerpt pasted as output.txt: no lsmod header, no grep in the name; mlx5_core may be
	# loaded and filtered out
	count(rule.findings) == 0 with input as {"host": {"modules": ofed_only, "modules_filter": "?"}}
}

test_no_finding_when_the_filter_does_not_cover_ib_uverbs if {
	# `lsmod | grep mlx5` (corpus 111 style) lists mlx5_core, mlx5_ib and ib_core only as a user
	mods := [{"name": "mlx5_core"}, {"name": "mlx5_ib"}, {"name": "ib_core"}]
	count(rule.findings) == 0 with input as {"host": {"modules": mods, "modules_filter": "mlx5"}, "devices": [{"name": "mlx5_0"}]}
}
