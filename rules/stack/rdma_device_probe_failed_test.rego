package rdmadoctor.rules.rdma_device_probe_failed_test

import data.rdmadoctor.rules.rdma_device_probe_failed as rule

pci := "0000:03:00.0"

ev(n, kind, drv, text) := {"kind": kind, "driver": drv, "pci_address": pci, "evidence": {"line": n, "text": text}}

# corpus 116 (fixtures/dmesg/mlx5-probe-fails-handle-hca-cap.txt)
log116 := [
	ev(2, "other", "mlx5_core", "[   12.926115] mlx5_core 0000:03:00.0: firmware version: 14.32.1010"),
	ev(4, "probe_failed", "mlx5_core", "[   13.672173] mlx5_core 0000:03:00.0: handle_hca_cap failed"),
	ev(5, "probe_failed", "mlx5_core", "[   14.059052] mlx5_core 0000:03:00.0: mlx5_load_one failed with error code -22"),
	ev(6, "probe_failed", "mlx5_core", "[   14.059582] mlx5_core: probe of 0000:03:00.0 failed with error -22"),
]

test_fires_on_probe_failure if {
	fs := rule.findings with input as {"host": {"kernel_events": log116}}
	count(fs) == 1
	some f in fs
	f.subject == {"pci": pci}
	f.vars.driver == "mlx5_core"
	count(f.evidence) == 3
	contains(f.message, "probe of 0000:03:00.0 failed with error -22")
}

test_no_finding_when_the_function_registered_later if {
	devs := [{"name": "mlx5_0", "pci_address": pci}]
	count(rule.findings) == 0 with input as {"host": {"kernel_events": log116}, "devices": devs}
	count(rule.findings) == 0 with input as {"host": {"kernel_events": log116}, "netdevs": [{"name": "eth0", "pci_address": pci}]}
}

test_no_finding_for_a_healthy_bring_up if {
	# corpus 007: the driver's bring-up lines are not failures
	count(rule.findings) == 0 with input as {"host": {"kernel_events": [log116[0]]}}
}

test_no_finding_for_another_drivers_probe if {
	e := object.union(log116[3], {"driver": "nvme"})
	count(rule.findings) == 0 with input as {"host": {"kernel_events": [e]}}
}
