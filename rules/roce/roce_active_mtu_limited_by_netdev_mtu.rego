# METADATA
# title: RoCE path MTU limited by the netdev MTU
# description: >-
#   A RoCE port's active MTU is the largest IB MTU that fits the Ethernet MTU minus 96 bytes of
#   headers, so a 1500-byte netdev MTU gives a 1024-byte RoCE MTU although the adapter supports
#   4096. That costs roughly 10-20 % bandwidth and raises packet rate and CPU load; it is a
#   choice some sites make on front-end networks, but usually an oversight. Every host and switch
#   port in the path must carry the larger MTU.
# scope: package
# related_resources:
#   - ref: https://github.com/torvalds/linux/blob/master/include/rdma/ib_addr.h
#   - ref: https://docs.nvidia.com/doca/sdk/RDMA+over+Converged+Ethernet
# custom:
#   id: roce-active-mtu-limited-by-netdev-mtu
#   area: roce
#   severity: warning
#   confidence: high
#   requires: [ib_ports]
#   explains: [roce-transport-retransmissions, perftest-bandwidth-below-path-limit, perftest-completion-error]
#   needs_reboot: false
#   fix:
#     - command: ip link set {{netdev}} mtu 9000
#       note: on every host, and MTU >= 9216 on every switch port in the path; persist it (nmcli con mod <con> 802-3-ethernet.mtu 9000)
#     - command: ibv_devinfo -d {{device}} | grep active_mtu
#       note: expect 4096 (5)
package rdmadoctor.rules.roce_active_mtu_limited_by_netdev_mtu

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.roce

# ibv_devinfo: active_mtu below max_mtu on a RoCE port can only come from the netdev MTU.
findings contains f if {
	some dev in input.devices
	some p in dev.ports
	roce.port(dev, p)
	p.active_mtu < p.max_mtu
	p.active_mtu < 4096
	f := finding.with_fields(
		finding.port(dev, p, sprintf("%s port %d runs RoCE MTU %d of %d%s", [dev.name, p.number, p.active_mtu, p.max_mtu, because(dev, p)]), array.concat(finding.evidence(p, ["active_mtu", "max_mtu"]), mtu_evidence(dev, p))),
		vars(dev, p),
	)
}

# No ibv_devinfo: the netdev MTU alone says the RoCE MTU is below 4096.
findings contains f if {
	some dev in input.devices
	some p in dev.ports
	roce.port(dev, p)
	object.get(p, "active_mtu", null) == null
	nd := roce.netdev(dev, p)
	nd.mtu > 0
	roce.iboe_mtu(nd.mtu) < 4096
	f := finding.with_fields(
		finding.port(dev, p, sprintf("%s port %d: netdev %s has MTU %d, so RoCE runs at most MTU %d", [dev.name, p.number, nd.name, nd.mtu, roce.iboe_mtu(nd.mtu)]), finding.evidence(nd, ["mtu"])),
		object.union(vars(dev, p), {"confidence": "medium"}),
	)
}

because(dev, p) := sprintf(" because %s has MTU %d", [nd.name, nd.mtu]) if {
	nd := roce.netdev(dev, p)
	nd.mtu > 0
} else := ": the netdev MTU is below 4192"

mtu_evidence(dev, p) := finding.evidence(roce.netdev(dev, p), ["mtu"]) if {
	roce.netdev(dev, p)
} else := []

vars(dev, p) := {"vars": {"netdev": roce.netdev(dev, p).name}} if {
	roce.netdev(dev, p)
} else := {}
