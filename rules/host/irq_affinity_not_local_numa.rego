# METADATA
# title: NIC completion IRQs served by CPUs of the remote NUMA node
# description: >-
#   Most completion interrupts of the adapter may only run on CPUs outside its local NUMA node
#   (smp_affinity_list vs device/local_cpulist), so every interrupt crosses the socket interconnect:
#   more latency and memory traffic for IPoIB, TCP and interrupt-driven verbs. Polling RDMA
#   applications are hardly affected. With more vectors than local cores, some spill by design.
# scope: package
# related_resources:
#   - ref: https://github.com/Mellanox/mlnx-tools
#   - ref: https://docs.kernel.org/core-api/irq/irq-affinity.html
#   - ref: https://docs.nvidia.com/grace-perf-tuning-guide/optimizing-io.html
# custom:
#   id: irq-affinity-not-local-numa
#   area: host
#   severity: warning
#   confidence: medium
#   requires: [irqs, irq_affinity]
#   explains: [perftest-bandwidth-below-path-limit, perftest-latency-high]
#   needs_reboot: false
#   fix:
#     - command: systemctl stop irqbalance
#       note: or ban these IRQs from irqbalance, so it does not move them back
#     - command: set_irq_affinity_bynode.sh {{node}} {{netdev}}
#       note: mlnx-tools; pins the adapter's IRQs to its local NUMA node (or set_irq_affinity_cpulist.sh <local cpus> {{netdev}})
#       when: {vendor: Mellanox}
#     - command: echo {{cpus}} > /proc/irq/<irq>/smp_affinity_list
#       note: any driver - for each of the adapter's IRQs (grep {{pci}} /proc/interrupts), the CPUs of its NUMA node {{node}}
package rdmadoctor.rules.irq_affinity_not_local_numa

import data.rdmadoctor.lib.cpus
import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.join

findings contains f if {
	some addr in {q.pci_address | some q in input.irqs; comp(q); q.pci_address != ""}
	loc := locality(addr)
	loc.node >= 0
	local := cpus.expand(loc.cpulist)
	count(local) > 0
	irqs := [q | some q in input.irqs; comp(q); q.pci_address == addr; cpus.affinity(q)]
	remote := [q | some q in irqs; count(cpus.affinity(q) & local) == 0]
	count(remote) * 2 > count(irqs)
	f := {
		"subject": subject(addr, loc),
		"message": sprintf("%d of %d completion IRQs of %s may only run outside its NUMA node %d (local CPUs %s), e.g. IRQ %d on %s", [count(remote), count(irqs), addr, loc.node, loc.cpulist, remote[0].number, object.get(remote[0], "smp_affinity_list", "?")]),
		"evidence": array.concat(loc.evidence, [e | some q in array.slice(remote, 0, 3); some e in finding.evidence(q, ["smp_affinity_list", "name"])]),
		"vars": {"node": format_int(loc.node, 10), "cpus": loc.cpulist},
	}
}

comp(q) if q.kind == "comp"

comp(q) if {
	object.get(q, "kind", "") == ""
	contains(q.name, "_comp")
}

# locality returns {node, cpulist, netdev, device, evidence} for a PCI address from the RDMA device
# or the netdev behind it; undefined when the NUMA node or the CPU list is unknown.
locality(addr) := l if {
	names := sort({d.name | some d in input.devices; join.pci(d) == addr; is_number(d.numa_node); object.get(d, "local_cpulist", "") != ""})
	some d in input.devices
	d.name == names[0]
	l := {"node": d.numa_node, "cpulist": d.local_cpulist, "device": d.name, "netdev": netdev_of(addr), "evidence": finding.evidence(d, ["numa_node", "local_cpulist"])}
} else := l if {
	names := sort({nd.name | some nd in input.netdevs; nd.pci_address == addr; is_number(nd.numa_node); object.get(nd, "local_cpulist", "") != ""})
	some nd in input.netdevs
	nd.name == names[0]
	l := {"node": nd.numa_node, "cpulist": nd.local_cpulist, "device": "", "netdev": nd.name, "evidence": finding.evidence(nd, ["numa_node", "local_cpulist"])}
}

netdev_of(addr) := names[0] if {
	names := sort({nd.name | some nd in input.netdevs; nd.pci_address == addr})
	count(names) > 0
} else := ""

subject(addr, loc) := finding.compact({"pci": addr, "device": loc.device, "netdev": loc.netdev})
