package rdmadoctor.rules.irq_affinity_collapsed_test

import data.rdmadoctor.rules.irq_affinity_collapsed as rule

irq(n, aff) := {"number": n, "name": sprintf("mlx5_comp%d@pci:0000:01:00.0", [n]), "kind": "comp", "pci_address": "0000:01:00.0", "smp_affinity_list": aff}

counted(n, per) := {"number": n, "name": sprintf("mlx5_comp%d@pci:0000:01:00.0", [n]), "kind": "comp", "pci_address": "0000:01:00.0", "total": sum(per), "per_cpu": per}

test_fires_all_pinned_to_cpu0 if {
	fs := rule.findings with input as {"irqs": [irq(1, "0"), irq(2, "0"), irq(3, "0")]}
	count(fs) == 1
	some f in fs
	contains(f.message, "CPU 0")
}

test_fires_from_counts if {
	fs := rule.findings with input as {"irqs": [counted(1, [5000, 0, 0, 0]), counted(2, [7000, 0, 0, 0]), counted(3, [0, 0, 0, 0])]}
	some f in fs
	f.confidence == "medium"
}

test_no_finding_when_spread if {
	count(rule.findings) == 0 with input as {"irqs": [irq(1, "0"), irq(2, "1"), irq(3, "2")]}
}

test_no_finding_for_spread_counts if {
	# corpus 042: one busy vector per core
	count(rule.findings) == 0 with input as {"irqs": [counted(1, [324, 0, 4360, 0]), counted(2, [0, 2, 0, 395218]), counted(3, [0, 0, 2, 0])]}
}

test_no_finding_for_single_vector if {
	count(rule.findings) == 0 with input as {"irqs": [counted(1, [0, 0]), irq(2, "0")]}
}
