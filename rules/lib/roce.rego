# METADATA
# title: RoCE ports
# description: >-
#   Recognises RoCE ports (Ethernet link layer, or an unknown link layer with RoCE GID types) and
#   finds their netdev: the snapshot's join first, else the predictable names rdma-core and
#   systemd derive from the same PCI path (rdma-core kernel-boot/rdma_rename.c NAME_PCI
#   "roce" + [P<domain>]p<bus>s<slot>f<fn>; systemd-udev net_id "en" + the same + "np<port>"),
#   e.g. rocep1s0f0 <-> enp1s0f0np0. RoCE path MTU from netdev MTU per kernel
#   include/rdma/ib_addr.h iboe_get_mtu() (rule-catalog §3.5).
# scope: package
package rdmadoctor.lib.roce

import data.rdmadoctor.lib.intent
import data.rdmadoctor.lib.join
import data.rdmadoctor.lib.port

# eth holds for a port whose link layer is Ethernet, or unknown while its GIDs are RoCE types.
eth(p) if p.link_layer == "Ethernet"

eth(p) if {
	object.get(p, "link_layer", "") == ""
	some g in object.get(p, "gids", [])
	startswith(object.get(g, "type", ""), "RoCE")
}

# port holds for a RoCE port that may carry RDMA: Ethernet, link not down, not marked unused.
port(dev, p) if {
	eth(p)
	not port.link_down(p)
	not object.get(p, "state", "") in {"Down", "Initializing", "Armed"}
	not intent.unused(dev, p)
}

# netdev returns the netdev object of RoCE port p of dev; undefined when none is known.
netdev(dev, p) := nd if {
	nd := join.netdev(dev, p)
} else := nd if {
	names := sort([n.name | some n in input.netdevs; predictable_pair(dev.name, n.name)])
	count(names) > 0
	some nd in input.netdevs
	nd.name == names[0]
}

# predictable_pair holds when an RDMA device name and a netdev name derive from the same PCI path.
predictable_pair(rdma, nd) if {
	m := regex.find_all_string_submatch_n(`^roce(P[0-9]+)?(p[0-9]+s[0-9]+(?:f[0-9]+)?)$`, rdma, 1)
	count(m) == 1
	path := concat("", [m[0][1], m[0][2]])
	regex.match(concat("", [`^en`, path, `(np[0-9]+)?$`]), nd)
}

# iboe_mtu is the RoCE path MTU the kernel derives from a netdev MTU; 0 below 256 + 96.
iboe_mtu(mtu) := m if {
	fits := [x | some x in [4096, 2048, 1024, 512, 256]; x <= mtu - 96]
	count(fits) > 0
	m := fits[0]
} else := 0

# vlan_children are the netdevs stacked on nd as VLANs ("<nd>.<vid>").
vlan_children(nd) := {n.name |
	some n in input.netdevs
	regex.match(concat("", [`^`, replace(nd.name, ".", `\.`), `\.[0-9]+$`]), n.name)
}

# pfc_priority is the priority PFC protects on nd (the lowest enabled), else 3, the usual RoCE one.
pfc_priority(nd) := min({x | some x in nd.qos.pfc_enabled}) if {
	count(object.get(object.get(nd, "qos", {}), "pfc_enabled", [])) > 0
} else := 3

# gid_paths are the paths of the captures port p's GIDs were read from ("" for a GID without
# evidence): usually one, so a test of the path runs once per port, not once per GID.
gid_paths(p) := {object.get(g, ["evidence", "path"], "") | some g in p.gids}

# partial_path holds for the path of a capture its name marks as cut short ("_TRUNCATED",
# "_EXCERPT", "_FILTERED"): what it lacks may exist.
partial_path(path) if regex.match(`(?i)(truncated|excerpt|filtered)`, path)
