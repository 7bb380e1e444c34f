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
	# lsmod | grep mlx cannot show nvidia_peermem
	count(rule.findings) == 0 with input as {"host": {"modules": mods(["nvidia", "mlx5_ib"]), "modules_filter": "mlx"}, "devices": [{"name": "mlx5_0"}]}
}
