# METADATA
# title: No usable RoCE v2 GID
# description: >-
#   The RoCE port has no RoCE v2 GID built from a routable address (an IPv4-mapped
#   ::ffff:a.b.c.d GID or a global IPv6 one). Routed (L3) RoCE v2, RDMA-CM and tools that pick "the
#   RoCE v2 IPv4 GID" (NCCL/UCX auto-selection, NCCL_IB_GID_INDEX=3 conventions) then fail to
#   connect or choose a link-local GID that is not routable. Usually the netdev has no IPv4 address,
#   or RoCE v2 is not enabled; in a container, a GID table with no GID at all means no interface of
#   the pod's namespace is backed by the RDMA device.
# scope: package
# related_resources:
#   - ref: https://www.kernel.org/doc/Documentation/ABI/testing/sysfs-class-infiniband
#   - ref: https://www.kernel.org/doc/Documentation/ABI/testing/configfs-rdma_cm
#   - ref: https://github.com/NVIDIA/nccl/issues/769
#   - ref: https://github.com/NVIDIA/nccl/issues/1510
#   - ref: https://github.com/Mellanox/k8s-rdma-sriov-dev-plugin/issues/30
# custom:
#   id: roce-no-rocev2-gid
#   area: roce
#   severity: error
#   confidence: high
#   requires: [gids]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ip addr add <address>/<prefix> dev {{netdev}}
#       note: give the RoCE netdev (or the VLAN the RDMA traffic uses) an IPv4 or global IPv6 address; the kernel adds its RoCE v1 and v2 GIDs
#     - command: cma_roce_mode -d {{device}} -p {{port}} -m 2
#       note: make RDMA-CM default to RoCE v2 (configfs, not persistent - reapply at boot)
#     - command: show_gids {{device}}
#       note: use the index whose VER is v2 and whose IPv4 column is set (or unset NCCL_IB_GID_INDEX on NCCL >= 2.21)
#     - command: rdma system show netns
#       note: in a container, give the pod an interface backed by the RDMA port (SR-IOV VF, macvlan/ipvlan on the PF, or host networking); in exclusive netns mode move the RDMA device with its netdev (rdma dev set <dev> netns <pid>)
package rdmadoctor.rules.roce_no_rocev2_gid

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.roce

# unroutable are the RoCE ports, as [device, port], whose GID types are known (without them, old
# kernel: see kernel-lacks-rocev2) and that have no routable RoCE v2 GID: where both findings below
# start. A complete rule, evaluated once for both.
unroutable := [[dev, p] |
	some dev in input.devices
	some p in dev.ports
	roce.port(dev, p)
	typed(p)
	not routable_v2(p)
]

# The netdevs of the port have a routable address but no RoCE v2 GID carries one.
findings contains f if {
	some [dev, p] in unroutable
	some i in routable_netdevs(dev, p)
	nd := input.netdevs[i]
	addr := routable_address(nd)
	f := finding.with_fields(
		finding.port(dev, p, sprintf("%s port %d: %s has %s but no RoCE v2 GID carries it (%s)", [dev.name, p.number, nd.name, addr, summary(p)]), gid_evidence(p)),
		{"vars": {"netdev": nd.name}},
	)
}

# No netdev of the port has a routable address: every RoCE v2 GID is link-local (or there is none).
# RoCE over link-local GIDs works inside one L2 segment, so this is a warning with medium confidence.
findings contains f if {
	some [dev, p] in unroutable
	count(p.gids) > 0
	not partial_gids(p)
	count(routable_netdevs(dev, p)) == 0
	f := finding.with_fields(
		finding.port(dev, p, sprintf("%s port %d has no RoCE v2 GID with an IPv4 or global IPv6 address (%s): routed RoCE v2 and IPv4 GID selection fail", [dev.name, p.number, summary(p)]), gid_evidence(p)),
		{"severity": "warning", "confidence": "medium"},
	)
}

# typed holds when the GID types are known.
typed(p) if {
	some g in p.gids
	object.get(g, "type", "") != ""
}

# routable_v2 holds when a RoCE v2 GID of the port is routable: it carries an IPv4 address, or it
# is neither link-local (fe80:) nor IPv4-mapped (::ffff:a.b.c.d). Both tests are written out here
# rather than called per GID.
routable_v2(p) if {
	some i in v2(p)
	object.get(p.gids[i], "ipv4", "") != ""
}

routable_v2(p) if {
	some i in v2(p)
	gid := lower(p.gids[i].gid)
	not startswith(gid, "fe80:")
	not regex.match(`^(0000:){5}ffff:`, gid)
}

# port_netdev_names are the names of the netdevs the port's GIDs belong to, plus the port's own
# netdev. Rules collect names, not netdev objects: a set of objects is built (hashed, sorted) from
# every field of every netdev.
port_netdev_names(dev, p) := ({g.netdev | some g in p.gids} - {""}) | own(dev, p)

# partial_gids holds when the port's GIDs come from a capture cut short.
partial_gids(p) if {
	some path in roce.gid_paths(p)
	roce.partial_path(path)
}

own(dev, p) := {roce.netdev(dev, p).name} if {
	roce.netdev(dev, p)
} else := set()

# routable_netdevs are the indices in input.netdevs of the port's netdevs that have a routable
# address: one pass over the netdevs per port, for both findings.
routable_netdevs(dev, p) := [i |
	names := port_netdev_names(dev, p)
	some i, nd in input.netdevs
	nd.name in names
	routable_address(nd)
]

routable_address(nd) := a if {
	a := nd.ipv4[0]
} else := globals[0] if {
	# several global IPv6 addresses are common (SLAAC plus a static one): name the first
	globals := [a.address | some a in object.get(nd, "ipv6", []); a.scope == "global"]
	count(globals) > 0
}

summary(p) := sprintf("%d GIDs, %d RoCE v2, all link-local or without IPv4", [count(p.gids), count(v2(p))]) if {
	count(v2(p)) > 0
} else := sprintf("%d GIDs, none of type RoCE v2", [count(p.gids)])

# v2 are the indices of the port's RoCE v2 GIDs.
v2(p) := [i | some i, g in p.gids; g.type == "RoCE v2"]

# gid_evidence quotes the port's RoCE v2 GIDs (at most four), else its first GIDs.
gid_evidence(p) := [p.gids[i].evidence | some i in array.slice([i | some i in v2(p); p.gids[i].evidence], 0, 4)] if {
	count(v2(p)) > 0
} else := array.slice([g.evidence | some g in p.gids], 0, 4)

# show_gids walked every GID table of the namespace it ran in and found none, while an RDMA
# device is there whose ports are not known to be InfiniBand (an IB port always has its default
# GID): no netdev with an address is bound to the device in that namespace (a pod whose only
# interface is a veth, corpus 032). Medium: the listing says "none", the device list says which
# devices, nothing ties the two to one namespace but the capture.
findings contains f if {
	some l in input.gid_listings
	l.found == 0
	not any_gid
	some dev in input.devices
	not infiniband_only(dev)
	f := finding.with_fields(
		finding.device(dev, sprintf("show_gids found no GID at all (%s) although %s is present: no netdev with an address is bound to this RDMA device in the namespace the capture ran in%s, so RoCE cannot address it", [l.evidence.text, dev.name, veth_note]), array.concat([l.evidence], device_evidence(dev))),
		{"confidence": "medium"},
	)
}

any_gid if {
	some dev in input.devices
	some p in object.get(dev, "ports", [])
	count(object.get(p, "gids", [])) > 0
}

infiniband_only(dev) if {
	ports := object.get(dev, "ports", [])
	count(ports) > 0
	every p in ports {
		p.link_layer == "InfiniBand"
	}
}

# veth_note names the namespace's veth interfaces (ethtool -i: driver veth): not backed by any
# RDMA device.
veth_note := sprintf(" (its interfaces are veth, not backed by an RDMA device: %s)", [concat(", ", names)]) if {
	names := sort([nd.name | some nd in input.netdevs; object.get(nd, "driver", "") == "veth"])
	count(names) > 0
} else := ""

device_evidence(dev) := [e | some e in [object.get(dev, ["evidence", "name"], null)]; e != null]
