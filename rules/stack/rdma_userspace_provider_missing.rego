# METADATA
# title: libibverbs has no user-space provider for the RDMA devices
# description: >-
#   The kernel exposes RDMA devices, but libibverbs finds no device-specific user-space driver
#   (libmlx5, libmlx4, ... from rdma-core's ibverbs-providers / libibverbs package) for them, so
#   every verbs application sees zero devices: MPI and UCX fall back to TCP, NCCL to sockets.
#   Typical in containers built without rdma-core, or with MLNX_OFED and distribution libraries mixed.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/libibverbs/init.c
#   - ref: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html
# custom:
#   id: rdma-userspace-provider-missing
#   area: stack
#   severity: error
#   confidence: high
#   requires: []
#   explains: [rdma-memlock-limit-too-low, gpudirect-peer-memory-missing]
#   needs_reboot: false
#   fix:
#     - command: apt install ibverbs-providers libibverbs1
#       note: or dnf install libibverbs rdma-core; in a container install rdma-core user space matching the host driver (or mount the DOCA-OFED user libraries)
#     - command: ls /etc/libibverbs.d/
#       note: expect the provider of each device's driver (mlx5.driver, mlx4.driver for ConnectX-3, irdma.driver, bnxt_re.driver, qedr.driver); remove stray copies from another install
#     - command: IBV_SHOW_WARNINGS=1 ibv_devices
#       note: verify that every device is listed and no warning remains
package rdmadoctor.rules.rdma_userspace_provider_missing

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.modules

# libibverbs said so (printed only with IBV_SHOW_WARNINGS=1 in current rdma-core).
findings contains f if {
	msgs := [m | some m in input.host.userspace; contains(m.message, "no userspace device-specific driver found")]
	count(msgs) > 0
	paths := sort({p |
		some m in msgs
		some x in regex.find_all_string_submatch_n(`found for (\S+)`, m.message, 1)
		p := x[1]
	})
	f := finding.node(sprintf("libibverbs found no user-space driver for %s: verbs applications see no RDMA device", [concat(", ", paths_or_unknown(paths))]), [m.evidence | some m in array.slice(msgs, 0, 3)])
}

paths_or_unknown(paths) := paths if count(paths) > 0

else := ["the kernel's devices"]

# The kernel lists devices in sysfs and ib_uverbs is loaded, yet libibverbs lists none.
findings contains f if {
	not warned
	sysfs_devices
	modules.loaded("ib_uverbs")
	some src in input.sources
	src.name in {"ibv_devinfo", "ibv_devices"}
	src.status == "unsupported"
	contains(src.error, "No IB devices found")
	f := finding.with_fields(
		finding.node(sprintf("/sys/class/infiniband lists %s and ib_uverbs is loaded, but %s says %q: libibverbs has no provider for them", [concat(", ", sort({d.name | some d in input.devices})), src.name, src.error]), userspace_evidence(src.name)),
		{"confidence": "medium"},
	)
}

warned if {
	some m in input.host.userspace
	contains(m.message, "no userspace device-specific driver found")
}

sysfs_devices if {
	count(input.devices) > 0
	some src in input.sources
	src.name == "sysfs_infiniband"
	src.status == "ok"
}

userspace_evidence(tool) := [m.evidence | some m in input.host.userspace; m.tool == tool]
