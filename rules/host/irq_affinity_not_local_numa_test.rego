package rdmadoctor.rules.irq_affinity_not_local_numa_test

import data.rdmadoctor.rules.irq_affinity_not_local_numa as rule

nic := {"name": "ens1f0np0", "pci_address": "0000:3b:00.0", "numa_node": 0, "local_cpulist": "0-15"}

irq(n, aff) := {"number": n, "name": sprintf("mlx5_comp%d@pci:0000:3b:00.0", [n - 100]), "kind": "comp", "pci_address": "0000:3b:00.0", "smp_affinity_list": aff}

test_fires_when_most_irqs_remote if {
	fs := rule.findings with input as {"netdevs": [nic], "irqs": [irq(100, "16"), irq(101, "17"), irq(102, "3")]}
	count(fs) == 1
	some f in fs
	f.subject == {"pci": "0000:3b:00.0", "netdev": "ens1f0np0"}
	f.vars == {"node": "0", "cpus": "0-15"}
}

test_no_finding_when_local if {
	count(rule.findings) == 0 with input as {"netdevs": [nic], "irqs": [irq(100, "0"), irq(101, "1-3"), irq(102, "16")]}
}

test_no_finding_when_numa_unknown if {
	nd := object.union(nic, {"numa_node": -1})
	count(rule.findings) == 0 with input as {"netdevs": [nd], "irqs": [irq(100, "16"), irq(101, "17")]}
}

test_no_finding_without_affinity if {
	# corpus 042: /proc/interrupts only, no /proc/irq/N/smp_affinity_list
	q := object.remove(irq(100, ""), ["smp_affinity_list"])
	count(rule.findings) == 0 with input as {"netdevs": [nic], "irqs": [q]}
}
