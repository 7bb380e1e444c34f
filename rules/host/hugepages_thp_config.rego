# METADATA
# title: No hugepages reserved for DPDK
# description: >-
#   A user-space packet-processing driver module is loaded (vfio-pci, uio_pci_generic or igb_uio,
#   which DPDK binds NICs to) but no hugepages are reserved (HugePages_Total 0). DPDK, and XLIO/VMA
#   with hugepage allocation, cannot start or fall back to slow 4 KiB pages. Plain verbs, MPI and
#   NCCL do not need reserved hugepages and are not reported; neither is the THP mode, which helps
#   or hurts depending on the workload.
# scope: package
# related_resources:
#   - ref: https://docs.kernel.org/admin-guide/mm/hugetlbpage.html
#   - ref: https://github.com/Mellanox/mlnx-tools
# custom:
#   id: hugepages-thp-config
#   area: host
#   severity: info
#   confidence: low
#   requires: [meminfo, lsmod]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: sysctl -w vm.nr_hugepages=1024
#       note: 2 MiB pages, at once (may reserve fewer on fragmented memory); persist in /etc/sysctl.d/
#     - command: "grubby --update-kernel=ALL --args='default_hugepagesz=1G hugepagesz=1G hugepages=16'"
#       note: 1 GiB pages need a boot-time reservation and a reboot
package rdmadoctor.rules.hugepages_thp_config

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.modules

dpdk_modules := ["vfio_pci", "uio_pci_generic", "igb_uio"]

findings contains f if {
	input.host.hugepages_total == 0
	loaded := [m | some m in dpdk_modules; modules.loaded(m)]
	count(loaded) > 0
	f := finding.node(
		sprintf("HugePages_Total is 0 while %s is loaded: DPDK (and XLIO/VMA hugepage allocation) has no hugepages", [concat(", ", loaded)]),
		array.concat(finding.evidence(input.host, ["hugepages_total"]), modules.evidence),
	)
}
