# METADATA
# title: The adapter's NUMA node is unknown
# description: >-
#   The firmware (ACPI SRAT/_PXM) did not tell the kernel which NUMA node the adapter is attached
#   to, so device/numa_node reads -1 on a host that has several nodes. IRQ affinity scripts, NCCL
#   topology detection and MPI binding cannot place work next to the adapter, and cross-socket
#   traffic follows. Single-socket hosts and many VMs report -1 legitimately; they are not reported.
# scope: package
# related_resources:
#   - ref: https://www.kernel.org/doc/Documentation/ABI/testing/sysfs-bus-pci
#   - ref: https://github.com/Mellanox/mlnx-tools
# custom:
#   id: nic-numa-node-unknown
#   area: host
#   severity: info
#   confidence: high
#   requires: []
#   explains: [irq-affinity-not-local-numa]
#   needs_reboot: true
#   fix:
#     - command: cat /sys/devices/system/node/online
#       note: confirm the host has more than one NUMA node
#     - command: set_irq_affinity_cpulist.sh <cpus of the slot's socket> {{netdev}}
#       note: meanwhile pin by hand (mlnx-tools); give NCCL an NCCL_TOPO_FILE
#       when: {vendor: Mellanox}
#     - command: echo <cpus of the slot's socket> > /proc/irq/<irq>/smp_affinity_list
#       note: any driver - meanwhile pin each of the adapter's IRQs (grep {{pci}} /proc/interrupts) by hand; give NCCL an NCCL_TOPO_FILE
#     - command: reboot
#       note: after a BIOS update or enabling NUMA/SRAT reporting in the BIOS setup
package rdmadoctor.rules.nic_numa_node_unknown

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca

# RDMA devices with numa_node -1.
findings contains f if {
	multi_node
	some dev in input.devices
	not hca.is_vf(dev)
	object.get(dev, "capture", "") == ""
	dev.numa_node == -1
	f := finding.device(dev, sprintf("%s reports NUMA node -1 although this host has NUMA node %d elsewhere: the adapter's locality is unknown", [dev.name, max_node]), finding.evidence(dev, ["numa_node"]))
}

# Netdevs with numa_node -1 that no RDMA device reports already.
findings contains f if {
	multi_node
	some nd in input.netdevs
	nd.numa_node == -1
	not rdma_reported(nd)
	mellanox_netdev(nd)
	f := finding.netdev(nd, sprintf("%s reports NUMA node -1 although this host has NUMA node %d elsewhere: the adapter's locality is unknown", [nd.name, max_node]), finding.evidence(nd, ["numa_node"]))
}

rdma_reported(nd) if {
	some dev in input.devices
	dev.numa_node == -1
	dev.name == nd.rdma_device
}

mellanox_netdev(nd) if nd.rdma_device != ""

mellanox_netdev(nd) if startswith(object.get(nd, "driver", ""), "mlx")

# nodes are the NUMA node numbers anything on this host reports.
nodes := {n |
	some coll in ["devices", "netdevs", "pci", "mst_devices"]
	some d in object.get(input, coll, [])
	n := d.numa_node
	is_number(n)
}

max_node := max(nodes)

# multi_node: a device is attached to a node above 0, so the host has several.
multi_node if max_node >= 1
