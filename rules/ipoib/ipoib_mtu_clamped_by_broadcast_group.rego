# METADATA
# title: IPoIB MTU limited by the subnet manager's broadcast group
# description: >-
#   The IPoIB multicast (broadcast) group that the subnet manager created has a smaller MTU than
#   the one configured on the interface: the kernel clamps a datagram-mode interface to the group
#   MTU (4092 becomes 2044) and, in connected mode, multicast above it (ARP, neighbour discovery)
#   is dropped. Nodes that did get the large MTU then fail large-packet traffic to the others.
#   opensm's default partition has a 2048-byte group unless partitions.conf says mtu=5.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/opensm/blob/master/doc/partition-config.txt
#   - ref: https://docs.kernel.org/infiniband/ipoib.html
# custom:
#   id: ipoib-mtu-clamped-by-broadcast-group
#   area: ipoib
#   severity: warning
#   confidence: high
#   requires: []
#   explains: [ipoib-mode-mtu-suboptimal]
#   needs_reboot: false
#   fix:
#     - command: "echo 'Default=0x7fff, ipoib, mtu=5 : ALL=full;' >> /etc/opensm/partitions.conf && systemctl restart opensm"
#       note: on the SM host; on a switch SM or UFM set the default partition's IPoIB MTU to 4K. The group keeps its MTU until all members leave, so restart the SM
#     - command: ip link set {{netdev}} mtu 4092
#       note: on every node, once the group is 4K (65520 only in connected mode)
package rdmadoctor.rules.ipoib_mtu_clamped_by_broadcast_group

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.ipoib

# The kernel's own warning (ipoib_main.c): "ib0: mtu > 2044 will cause multicast packet drops."
findings contains f if {
	some name in {ev.netdev | some ev in input.host.kernel_events; ev.kind == "ipoib_mtu_clamped"; ev.netdev != ""}
	evs := [ev | some ev in input.host.kernel_events; ev.kind == "ipoib_mtu_clamped"; ev.netdev == name]
	limit := group_mtu(evs[0].evidence.text)
	f := {
		"subject": subject(name),
		"message": sprintf("%s: the kernel warns that an MTU above %s drops multicast - the SM's IPoIB broadcast group has a %s-byte MTU, smaller than the interface's", [name, limit, limit]),
		"evidence": [ev.evidence | some ev in array.slice(evs, 0, 2)],
	}
}

# The site wants a large datagram MTU but the interface sits at 2044: clamped to a 2K group.
findings contains f if {
	want := input.profile.ipoib.mtu
	want > 2044
	some nd in ipoib.netdevs
	not warned(nd.name)
	object.get(nd, "ipoib_mode", "") == "datagram"
	nd.mtu == 2044
	base := finding.netdev(nd, sprintf("%s runs datagram MTU 2044 although the site profile wants %d: the kernel clamps it to the broadcast group's 2048-byte MTU", [nd.name, want]), finding.evidence(nd, ["ipoib_mode", "mtu"]))
	f := object.union(base, {"subject": subject(nd.name), "confidence": "medium"})
}

warned(name) if {
	some ev in input.host.kernel_events
	ev.kind == "ipoib_mtu_clamped"
	ev.netdev == name
}

group_mtu(text) := m[0][1] if {
	m := regex.find_all_string_submatch_n(`mtu > (\d+)`, text, 1)
	count(m) == 1
} else := "2044"

subject(name) := {"netdev": name, "device": dp[0].name, "port": dp[1].number} if {
	dp := ipoib.port({"name": name})
} else := {"netdev": name}
