# METADATA
# title: vm.max_map_count at the kernel default
# description: >-
#   vm.max_map_count is at the kernel default of 65530 memory mappings per process. Large MPI,
#   UCX or NCCL jobs with many ranks, queue pairs and registered regions (UCX's registration cache
#   splits mappings) can reach it, and ibv_reg_mr or mmap then fail with ENOMEM. Most jobs never
#   get there; an ENOMEM from ibv_reg_mr is far more often the locked-memory limit.
# scope: package
# related_resources:
#   - ref: https://github.com/openucx/ucx/issues/6264
#   - ref: https://docs.kernel.org/admin-guide/sysctl/vm.html
# custom:
#   id: vm-max-map-count-low
#   area: host
#   severity: info
#   confidence: low
#   requires: [sysctl]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: sysctl -w vm.max_map_count=262144
#       note: takes effect at once
#     - command: echo 'vm.max_map_count = 262144' > /etc/sysctl.d/90-rdma.conf
#       note: persist
package rdmadoctor.rules.vm_max_map_count_low

import data.rdmadoctor.lib.finding

# 65530 is DEFAULT_MAX_MAP_COUNT (USHRT_MAX - 5, include/linux/mm.h).
findings contains f if {
	v := to_number(input.host.sysctls["vm.max_map_count"])
	v <= 65530
	count(input.devices) > 0
	f := finding.node(sprintf("vm.max_map_count is %d (kernel default): jobs with many ranks and registrations can run out of memory mappings", [v]), finding.evidence(input.host, ["sysctls.vm.max_map_count"]))
}
