# METADATA
# title: RDMA-CM user interface not loaded
# description: >-
#   The kernel RDMA stack is loaded but rdma_ucm (the user-space interface of the RDMA connection
#   manager, /dev/infiniband/rdma_cm) is not, so everything that connects through librdmacm fails:
#   MPI and UCX rdmacm wire-up, NVMe-oF and iSER, rping, ib_write_bw -R. Pure-verbs traffic (NCCL's
#   IB transport, perftest without -R) still works, which makes the failure look selective.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/librdmacm/cma.c
#   - ref: https://github.com/linux-rdma/rdma-core/tree/master/kernel-boot
# custom:
#   id: rdma-cm-module-missing
#   area: stack
#   severity: error
#   confidence: high
#   requires: []
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: modprobe rdma_ucm
#       note: loads rdma_cm too; then /dev/infiniband/rdma_cm exists
#     - command: echo rdma_ucm > /etc/modules-load.d/rdma_ucm.conf
#       note: persist (rdma-core's /etc/rdma/modules/rdma.conf does the same when the rdma service runs)
#     - command: docker run --device /dev/infiniband/rdma_cm ...
#       note: in a container the device node must be passed in as well
package rdmadoctor.rules.rdma_cm_module_missing

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.modules

# lsmod shows the RDMA core but not the RDMA-CM user interface.
findings contains f if {
	some core in ["ib_core", "mlx5_ib", "mlx4_ib"]
	modules.loaded(core)
	modules.absent("rdma_ucm")
	f := finding.node(sprintf("%s is loaded but rdma_ucm is not: /dev/infiniband/rdma_cm is missing and librdmacm connections (MPI/UCX rdmacm, NVMe-oF, rping) fail", [core]), modules.evidence)
}

# librdmacm itself says it cannot reach the kernel.
findings contains f if {
	not lsmod_shows_stack
	msgs := [m | some m in input.host.userspace; cm_refusal(m)]
	count(msgs) > 0
	f := finding.node(sprintf("librdmacm cannot reach the kernel RDMA-CM interface: %q", [msgs[0].message]), [m.evidence | some m in array.slice(msgs, 0, 3)])
}

lsmod_shows_stack if {
	some core in ["ib_core", "mlx5_ib", "mlx4_ib"]
	modules.loaded(core)
	modules.absent("rdma_ucm")
}

cm_refusal(m) if {
	m.tool == "librdmacm"
	regex.match(`couldn't read ABI version|unable to open /dev/infiniband/rdma_cm`, m.message)
}
