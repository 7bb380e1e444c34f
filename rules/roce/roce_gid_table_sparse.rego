# METADATA
# title: RoCE GID table starts above index 0 (a container's view)
# description: >-
#   The port's first GID is at an index above 0: the lower entries belong to netdevs of other
#   network namespaces (macvlan or ipvlan pods sharing one RDMA device) and read as empty here.
#   The index of "the RoCE v2 IPv4 GID" then differs per pod and per node, so a GID index set
#   cluster-wide (NCCL_IB_GID_INDEX, UCX_IB_GID_INDEX, -x of perftest) points at an empty or
#   foreign entry, and GID walkers that do not skip empty entries (NCCL before its sparse-table
#   fix) abort the connection. The link and the fabric are fine.
# scope: package
# related_resources:
#   - ref: https://github.com/NVIDIA/nccl/issues/1573
#   - ref: https://github.com/k8snetworkplumbingwg/multus-cni/issues/1100
#   - ref: https://www.kernel.org/doc/Documentation/ABI/testing/sysfs-class-infiniband
# custom:
#   id: roce-gid-table-sparse
#   area: roce
#   severity: warning
#   confidence: medium
#   requires: [gids]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: show_gids {{device}}
#       note: read the index of the RoCE v2 IPv4 GID in each pod at start-up instead of hard-coding it (it is {{v2_ipv4_index}} here)
#     - command: export NCCL_IB_ADDR_FAMILY=AF_INET NCCL_IB_ROCE_VERSION_NUM=2
#       note: let NCCL select the GID by address family and RoCE version and unset NCCL_IB_GID_INDEX; use an NCCL release whose GID selection skips empty entries
package rdmadoctor.rules.roce_gid_table_sparse

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.roce

findings contains f if {
	some dev in input.devices
	some p in dev.ports
	roce.eth(p)
	gids := populated(p)
	count(gids) > 0
	first := min([g.index | some g in gids])
	first > 0
	not cut_short(p)
	msg := sprintf("%s port %d: the GID table starts at index %d (indices 0-%d are empty in this namespace)%s: the GID index differs per pod, do not hard-code it", [dev.name, p.number, first, first - 1, v2_ipv4_text(p)])
	f := finding.with_fields(
		finding.port(dev, p, msg, array.slice([g.evidence | some g in gids; g.evidence], 0, 2)),
		{"vars": vars(p)},
	)
}

# populated are the GID entries of port p that are set, in order: sysfs lists unset entries as
# all zeros.
populated(p) := [g | some g in p.gids; lower(g.gid) != "0000:0000:0000:0000:0000:0000:0000:0000"]

# cut_short holds when the capture of the port's GIDs is an excerpt or filtered: its lower entries
# may just be left out. A truncated one is cut at its end: show_gids lists each port's GIDs by
# index, so its first rows still show where the table starts.
cut_short(p) if {
	some path in roce.gid_paths(p)
	regex.match(`(?i)(excerpt|filtered|grep)`, path)
}

vars(p) := {"v2_ipv4_index": v2_ipv4_index(p)} if {
	v2_ipv4_index(p)
} else := {}

v2_ipv4_index(p) := min([g.index | some g in p.gids; g.type == "RoCE v2"; object.get(g, "ipv4", "") != ""])

v2_ipv4_text(p) := sprintf(" and its RoCE v2 IPv4 GID is index %d", [v2_ipv4_index(p)]) if {
	v2_ipv4_index(p)
} else := ""
