# METADATA
# title: irqbalance moves the adapter's interrupts off its NUMA node
# description: >-
#   irqbalance is running and most completion interrupts of an RDMA adapter may only run on CPUs
#   of the remote NUMA node. irqbalance rewrites IRQ affinities periodically, so pinning the
#   adapter's IRQs to its local node (set_irq_affinity_bynode.sh, mlnx_affinity) does not last
#   unless irqbalance is stopped or told to leave those IRQs alone. Running irqbalance alone is
#   not reported: many clouds and GPU nodes run it harmlessly.
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/grace-perf-tuning-guide/optimizing-io.html
#   - ref: https://github.com/Mellanox/mlnx-tools
# custom:
#   id: irqbalance-active
#   area: host
#   severity: info
#   confidence: medium
#   requires: [services, irqs, irq_affinity]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: systemctl disable --now irqbalance
#       note: then pin the adapter's IRQs to its local node (set_irq_affinity_bynode.sh <node> {{netdev}})
#     - command: "echo 'IRQBALANCE_BANNED_CPULIST=<cpus local to the NIC>' >> /etc/sysconfig/irqbalance"
#       note: alternative that keeps irqbalance for other devices (Debian/Ubuntu - /etc/default/irqbalance)
package rdmadoctor.rules.irqbalance_active

import data.rdmadoctor.rules.irq_affinity_not_local_numa as numa

findings contains f if {
	svc := input.host.services.irqbalance
	svc.active == "active"
	some n in numa.findings
	f := {
		"subject": n.subject,
		"message": sprintf("irqbalance is active and %s", [n.message]),
		"evidence": array.concat([svc.evidence], array.slice(n.evidence, 0, 2)),
	}
}
