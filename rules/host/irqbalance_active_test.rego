package rdmadoctor.rules.irqbalance_active_test

import data.rdmadoctor.rules.irqbalance_active as rule

remote := {
	"devices": [{"name": "mlx5_0", "pci_address": "0000:3b:00.0", "numa_node": 0, "local_cpulist": "0-3"}],
	"irqs": [
		{"number": 157, "name": "mlx5_comp0@pci:0000:3b:00.0", "kind": "comp", "pci_address": "0000:3b:00.0", "smp_affinity_list": "4-7"},
		{"number": 158, "name": "mlx5_comp1@pci:0000:3b:00.0", "kind": "comp", "pci_address": "0000:3b:00.0", "smp_affinity_list": "5"},
	],
}

test_fires_when_irqbalance_runs_and_irqs_are_remote if {
	inp := object.union(remote, {"host": {"services": {"irqbalance": {"active": "active", "evidence": {"line": 3}}}}})
	fs := rule.findings with input as inp
	count(fs) == 1
	some f in fs
	startswith(f.message, "irqbalance is active")
}

test_no_finding_when_irqbalance_stopped if {
	inp := object.union(remote, {"host": {"services": {"irqbalance": {"active": "inactive"}}}})
	count(rule.findings) == 0 with input as inp
}

test_no_finding_when_irqs_are_local if {
	local := {
		"devices": remote.devices,
		"irqs": [{"number": 157, "name": "mlx5_comp0@pci:0000:3b:00.0", "kind": "comp", "pci_address": "0000:3b:00.0", "smp_affinity_list": "1"}],
		"host": {"services": {"irqbalance": {"active": "active"}}},
	}
	count(rule.findings) == 0 with input as local
}
