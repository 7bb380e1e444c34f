# METADATA
# title: Kernel without RoCE v2 GID support
# description: >-
#   The RoCE port's GID table in sysfs has no gid_attrs/types, and the kernel predates the RoCE v2
#   GID types (merged for Linux 4.5) with no OFED backport. Only RoCE v1 (L2, non-routable) works;
#   anything that needs RoCE v2 (routed RoCE, current NCCL/UCX defaults) fails to connect.
# scope: package
# related_resources:
#   - ref: https://www.kernel.org/doc/Documentation/ABI/testing/sysfs-class-infiniband
# custom:
#   id: kernel-lacks-rocev2
#   area: roce
#   severity: error
#   confidence: high
#   requires: [gids]
#   explains: [roce-no-rocev2-gid]
#   needs_reboot: true
#   fix:
#     - command: uname -r
#       note: upgrade to a kernel that exposes /sys/class/infiniband/<dev>/ports/{{port}}/gid_attrs/types (upstream >= 4.5 or a vendor kernel with the backport), or install the adapter vendor's driver package (DOCA-OFED/MLNX_OFED for a ConnectX)
#     - command: ls /sys/class/infiniband/{{device}}/ports/{{port}}/gid_attrs/types
#       note: after the upgrade and reboot, the GID types must be listed (IB/RoCE v1, RoCE v2)
package rdmadoctor.rules.kernel_lacks_rocev2

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.roce

# Enterprise kernels (RHEL 7's 3.10) carry backports, so the version alone proves nothing: fire
# only when sysfs was read, its GIDs have no type, and the kernel is older than 4.5.
findings contains f if {
	some dev in input.devices
	some p in dev.ports
	p.link_layer == "Ethernet"
	roce.port(dev, p)
	sysfs := [g | some g in p.gids; g.evidence.source == "sysfs_infiniband"]
	count(sysfs) > 0
	count([g | some g in p.gids; object.get(g, "type", "") != ""]) == 0
	old_kernel(input.host.kernel)
	f := finding.port(dev, p, sprintf("%s port %d: sysfs GIDs have no gid_attrs/types and kernel %s predates RoCE v2 GID support (4.5)", [dev.name, p.number, input.host.kernel]), array.concat([sysfs[0].evidence], kernel_evidence))
}

old_kernel(k) if {
	m := regex.find_all_string_submatch_n(`^([0-9]+)\.([0-9]+)`, k, 1)
	count(m) == 1
	[to_number(m[0][1]), to_number(m[0][2])] < [4, 5]
}

kernel_evidence := [e | e := input.host.evidence.kernel]
