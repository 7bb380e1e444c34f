package rdmadoctor.rules.gpudirect_peer_memory_missing_test

import data.rdmadoctor.rules.gpudirect_peer_memory_missing as rule

mods(names) := [{"name": n, "evidence": {"line": 1, "text": n}} | some n in names]

test_fires_without_peermem if {
	count(rule.findings) == 1 with input as {"host": {"modules": mods(["nvidia", "mlx5_ib", "mlx5_core"])}, "devices": [{"name": "mlx5_0"}]}
}

test_no_finding_with_peermem if {
	count(rule.findings) == 0 with input as {"host": {"modules": mods(["nvidia", "nvidia_peermem", "mlx5_ib"])}, "devices": [{"name": "mlx5_0"}]}
}

test_no_finding_without_gpu_driver if {
	count(rule.findings) == 0 with input as {"host": {"modules": mods(["mlx5_ib"])}, "devices": [{"name": "mlx5_0"}]}
}

test_no_finding_when_filter_hides_peermem if {
	# lsmod | grep mlx cannot show nvidia_peermem (nor nvidia, whose users would name it)
	count(rule.findings) == 0 with input as {"host": {"modules": mods(["mlx5_ib", "mlx5_core"]), "modules_filter": "mlx"}, "devices": [{"name": "mlx5_0"}]}
	count(rule.findings) == 0 with input as {"host": {"modules": [], "modules_filter": "mlx"}, "devices": [{"name": "mlx5_0"}]}
}

test_fires_when_nvidia_filter_lacks_peermem if {
	# `lsmod | grep nvidia` would list nvidia_peermem if it were loaded
	fs := rule.findings with input as {"host": {"modules": mods(["nvidia_uvm", "nvidia"]), "modules_filter": "nvidia"}, "devices": [{"name": "mlx5_0"}]}
	count(fs) == 1
}

test_no_finding_when_nvidia_users_name_peermem if {
	# gpud PR #39: a filtered lsmod where nvidia's "Used by" column names nvidia_peermem
	m := [{"name": "nvidia", "used_by": ["nvidia_uvm", "nvidia_peermem", "nvidia_modeset"]}, {"name": "ib_core"}]
	count(rule.findings) == 0 with input as {"host": {"modules": m, "modules_filter": "nvidia"}}
}

# fixtures/dmesg/nvidia-peermem-unknown-symbol-T.txt (NVIDIA/gpu-operator#2868)
unknown := [
	{"kind": "unknown_symbol", "driver": "nvidia_peermem", "symbol": "ib_register_peer_memory_client", "evidence": {"line": 2, "text": "[Tue Sep  8 17:16:02 2026] nvidia_peermem: Unknown symbol ib_register_peer_memory_client (err -22)"}},
	{"kind": "unknown_symbol", "driver": "nvidia_peermem", "symbol": "ib_unregister_peer_memory_client", "evidence": {"line": 4, "text": "[Tue Sep  8 17:16:02 2026] nvidia_peermem: Unknown symbol ib_unregister_peer_memory_client (err -22)"}},
]

test_fires_on_kernel_refusal_without_lsmod if {
	fs := rule.findings with input as {"host": {"kernel_events": unknown}}
	count(fs) == 1
	some f in fs
	contains(f.message, "ib_register_peer_memory_client, ib_unregister_peer_memory_client")
	count(f.evidence) == 2
}

test_no_finding_when_peermem_loaded_after_the_refusal if {
	fs := rule.findings with input as {"host": {"kernel_events": unknown, "modules": mods(["nvidia_peermem", "nvidia"])}}
	count(fs) == 0
}

test_no_finding_for_another_modules_unknown_symbol if {
	evs := [{"kind": "unknown_symbol", "driver": "mlx5_core", "symbol": "devlink_fmsg_u8_pair_put", "evidence": {"line": 1}}]
	count(rule.findings) == 0 with input as {"host": {"kernel_events": evs}}
}

test_fires_on_modprobe_refusal if {
	# fixtures/modprobe/nv-peer-mem-unknown-symbol-v.txt (Mellanox/nv_peer_memory#84)
	r := {"module": "nv_peer_mem", "inserted": ["/lib/modules/3.10.0-1127.19.1.el7.x86_64/extra/nv_peer_mem.ko"], "error": "Unknown symbol in module, or unknown parameter (see dmesg)", "evidence": {"inserted": {"line": 1}, "error": {"line": 2}}}
	fs := rule.findings with input as {"host": {"modprobe": [r]}}
	count(fs) == 1
	some f in fs
	contains(f.message, "modprobe could not load nv_peer_mem")
}

test_no_finding_for_a_modprobe_that_loaded_it if {
	r := {"module": "nvidia_peermem", "inserted": ["/lib/modules/6.8.0/kernel/drivers/video/nvidia-peermem.ko"], "evidence": {"inserted": {"line": 1}}}
	count(rule.findings) == 0 with input as {"host": {"modprobe": [r]}}
}

test_fires_when_installed_but_not_loaded if {
	# Mellanox/nv_peer_memory#46: `lsmod | grep nv_peer` printed nothing; modinfo shows the DKMS module
	mi := {"name": "nv_peer_mem", "not_found": false, "filename": "/lib/modules/4.15.0-46-generic/updates/dkms/nv_peer_mem.ko", "evidence": {"filename": {"line": 1}}}
	fs := rule.findings with input as {"host": {"modules": [], "modules_filter": "nv_peer", "module_info": [mi], "evidence": {"modules": {"source": "lsmod", "path": "lsmod_grep_nv_peer", "line": 0}}}}
	count(fs) == 1
	some f in fs
	contains(f.message, "installed (/lib/modules/4.15.0-46-generic/updates/dkms/nv_peer_mem.ko) but not loaded")
	count(f.evidence) == 2
}

test_no_finding_when_installed_and_filter_cannot_tell if {
	mi := {"name": "nv_peer_mem", "not_found": false, "filename": "/lib/modules/4.15.0-46-generic/updates/dkms/nv_peer_mem.ko", "evidence": {}}
	count(rule.findings) == 0 with input as {"host": {"modules": mods(["mlx5_ib"]), "modules_filter": "mlx", "module_info": [mi]}}
}

test_fires_with_install_note if {
	mi := {"name": "nvidia_peermem", "not_found": true, "evidence": {}}
	fs := rule.findings with input as {"host": {"modules": mods(["nvidia", "ib_core"]), "module_info": [mi]}}
	some f in fs
	contains(f.message, "(modinfo: nvidia_peermem not installed)")
}
