# METADATA
# title: One routable address on RoCE GIDs of several netdevs
# description: >-
#   The same IPv4 (or global IPv6) address is configured on two netdevs of one RoCE port (a bond
#   and a VXLAN or VLAN on it, say), so the GID table holds the same RoCE v2 GID twice, bound to
#   different netdevs. Which of them RDMA-CM, UCX or NCCL picks is undefined: traffic may resolve
#   its L2 path, VLAN and priority through the overlay device instead of the intended one. RoCE v2
#   GIDs exist, so this is not a missing-GID problem.
# scope: package
# related_resources:
#   - ref: https://github.com/openucx/ucx/pull/9484
#   - ref: https://www.kernel.org/doc/Documentation/ABI/testing/sysfs-class-infiniband
# custom:
#   id: roce-duplicate-gid-address
#   area: roce
#   severity: warning
#   confidence: high
#   requires: [gids]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ip addr del {{address}} dev {{other_netdev}}
#       note: remove the duplicate address from the netdev that should not carry RDMA (the overlay or VLAN device); use the prefix length ip addr shows
#     - command: show_gids {{device}}
#       note: or pin the GID of the intended netdev per node (UCX_IB_GID_INDEX, NCCL_IB_GID_INDEX); newer UCX selects the GID by netdev
package rdmadoctor.rules.roce_duplicate_gid_address

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.roce

findings contains f if {
	some dev in input.devices
	some p in dev.ports
	roce.eth(p)
	some gid, entries in v2_by_gid(p)
	netdevs := sort({e.netdev | some e in entries})
	count(netdevs) > 1
	addr := address(entries)
	idx := sort([sprintf("%d (%s)", [e.index, e.netdev]) | some e in entries])
	msg := sprintf("%s port %d: %s is on RoCE v2 GIDs %s: GID selection by address is ambiguous and RDMA traffic may take %s's L2 path", [dev.name, p.number, addr, concat(" and ", idx), netdevs[0]])
	f := finding.with_fields(
		finding.port(dev, p, msg, [e.evidence | some e in entries; e.evidence]),
		{"vars": {"address": addr, "other_netdev": netdevs[0]}},
	)
}

# v2_by_gid groups the port's RoCE v2 GIDs that carry a repeated routable value (see repeated) by
# that value.
v2_by_gid(p) := {gid: entries |
	some gid in repeated(p)
	entries := [e | some e in p.gids; e.type == "RoCE v2"; lower(e.gid) == gid; object.get(e, "netdev", "") != ""]
}

# repeated are the routable RoCE v2 GID values of the port (lower case; IPv4-mapped or global
# IPv6, not unset; link-local ones repeat on a bond's VLANs by design: they derive from the
# shared MAC) that more than one entry carries: equal neighbours once sorted, so that only they are
# looked up among the port's GIDs (one scan each), not every value.
repeated(p) := {gid |
	values := sort([v |
		some g in p.gids
		g.type == "RoCE v2"
		v := lower(g.gid)
		not startswith(v, "fe80:")
		v != "0000:0000:0000:0000:0000:0000:0000:0000"
	])
	some i, gid in values
	i > 0
	gid == values[i - 1]
}

address(entries) := entries[0].ipv4 if {
	object.get(entries[0], "ipv4", "") != ""
} else := entries[0].gid
