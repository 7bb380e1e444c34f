# METADATA
# title: All completion IRQs of a NIC served by one CPU
# description: >-
#   Every completion interrupt of the adapter is pinned to (or only ever fired on) the same CPU, so
#   one core handles all receive and completion work and caps throughput far below line rate, while
#   the driver spreads the vectors over the local cores by default. A stale manual pinning, an
#   affinity script run with one CPU, or irqbalance in a bad state usually does this.
# scope: package
# related_resources:
#   - ref: https://docs.kernel.org/core-api/irq/irq-affinity.html
#   - ref: https://github.com/Mellanox/mlnx-tools
# custom:
#   id: irq-affinity-collapsed
#   area: host
#   severity: warning
#   confidence: high
#   requires: [irqs]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: set_irq_affinity_bynode.sh {{node}} {{netdev}}
#       note: mlnx-tools; spreads the adapter's IRQs over its local cores (or set_irq_affinity_cpulist.sh <cpus> {{netdev}})
#       when: {vendor: Mellanox}
#     - command: echo <cpus> > /proc/irq/<irq>/smp_affinity_list
#       note: any driver - for each of the adapter's IRQs (grep {{pci}} /proc/interrupts), a different core local to the adapter (cat /sys/bus/pci/devices/{{pci}}/local_cpulist)
#     - command: grep {{pci}} /proc/interrupts
#       note: afterwards the per-CPU columns should grow on several CPUs
package rdmadoctor.rules.irq_affinity_collapsed

import data.rdmadoctor.lib.cpus
import data.rdmadoctor.lib.finding

# The affinity of every completion IRQ is the same single CPU.
findings contains f if {
	some addr in addresses
	irqs := comp_irqs(addr)
	count(irqs) >= 2
	affs := {a | some q in irqs; a := cpus.affinity(q)}
	count([q | some q in irqs; cpus.affinity(q)]) == count(irqs)
	count(affs) == 1
	some aff in affs
	count(aff) == 1
	some cpu in aff
	f := {
		"subject": subject(addr),
		"message": sprintf("all %d completion IRQs of %s are pinned to CPU %d", [count(irqs), addr, cpu]),
		"evidence": [e | some q in array.slice(irqs, 0, 3); some e in finding.evidence(q, ["smp_affinity_list", "name"])],
		"vars": {"node": node(addr)},
	}
}

# No affinity files: every interrupt of every busy completion IRQ landed on the same CPU.
findings contains f if {
	some addr in addresses
	irqs := comp_irqs(addr)
	not all_have_affinity(irqs)
	busy := [q | some q in irqs; q.total > 0]
	count(busy) >= 2
	count(busy[0].per_cpu) >= 2
	some cpu, _ in busy[0].per_cpu
	every q in busy {
		q.per_cpu[cpu] == q.total
	}
	f := {
		"subject": subject(addr),
		"message": sprintf("all interrupts of the %d busy completion IRQs of %s were handled by CPU %d", [count(busy), addr, cpu]),
		"evidence": [e | some q in array.slice(busy, 0, 3); some e in finding.evidence(q, ["name", "per_cpu"])],
		"confidence": "medium",
		"vars": {"node": node(addr)},
	}
}

addresses := {q.pci_address | some q in input.irqs; comp(q); q.pci_address != ""}

comp_irqs(addr) := [q | some q in input.irqs; comp(q); q.pci_address == addr]

all_have_affinity(irqs) if {
	every q in irqs {
		cpus.affinity(q)
	}
}

comp(q) if q.kind == "comp"

comp(q) if {
	object.get(q, "kind", "") == ""
	contains(q.name, "_comp")
}

subject(addr) := finding.compact({"pci": addr, "netdev": netdev_of(addr)})

netdev_of(addr) := names[0] if {
	names := sort({nd.name | some nd in input.netdevs; nd.pci_address == addr})
	count(names) > 0
} else := ""

node(addr) := format_int(nodes[0], 10) if {
	nodes := sort({nd.numa_node | some nd in input.netdevs; nd.pci_address == addr; nd.numa_node >= 0})
	count(nodes) > 0
} else := "<node>"
