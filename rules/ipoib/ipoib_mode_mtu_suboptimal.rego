# METADATA
# title: IPoIB runs a smaller MTU than the port allows
# description: >-
#   The IPoIB interface runs datagram mode with a 2044-byte MTU while the InfiniBand port's active
#   MTU is 4096, so IPoIB throughput is roughly halved compared with 4092. Enhanced IPoIB (mlx5,
#   ConnectX-4 and later) has no connected mode; the 4K datagram MTU needs the SM's IPoIB broadcast
#   group at mtu=5. Also reported when the interface differs from the profile's ipoib mode or mtu.
# scope: package
# related_resources:
#   - ref: https://docs.kernel.org/infiniband/ipoib.html
#   - ref: https://github.com/linux-rdma/opensm/blob/master/doc/partition-config.txt
#   - ref: https://docs.nvidia.com/networking/display/mlnxofedv587061lts/IP+over+InfiniBand+(IPoIB)
# custom:
#   id: ipoib-mode-mtu-suboptimal
#   area: ipoib
#   severity: info
#   confidence: high
#   requires: [netdevs]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: "echo 'Default=0x7fff, ipoib, mtu=5 : ALL=full;' >> /etc/opensm/partitions.conf && systemctl restart opensm"
#       note: on the SM host (or set the default partition's IPoIB MTU to 4K on a switch SM / UFM)
#     - command: ip link set {{netdev}} mtu 4092
#       note: on every node of the IPoIB subnet; persist in the connection profile
package rdmadoctor.rules.ipoib_mode_mtu_suboptimal

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.ipoib

# 2044 datagram while the port carries 4096.
findings contains f if {
	some nd in ipoib.netdevs
	nd.admin_up != false
	object.get(nd, "ipoib_mode", "datagram") == "datagram"
	nd.mtu <= 2044
	dp := ipoib.port(nd)
	p := dp[1]
	p.active_mtu >= 4096
	base := finding.netdev(
		nd,
		sprintf("%s runs %s mode with MTU %d while %s port %d has active_mtu %d: use 4092", [nd.name, object.get(nd, "ipoib_mode", "datagram"), nd.mtu, dp[0].name, p.number, p.active_mtu]),
		array.concat(finding.evidence(nd, ["ipoib_mode", "mtu"]), finding.evidence(p, ["active_mtu"])),
	)
	f := object.union(base, {"subject": object.union(base.subject, {"device": dp[0].name, "port": p.number})})
}

# The profile states the IPoIB MTU or mode and the interface differs.
findings contains f if {
	some nd in ipoib.netdevs
	why := policy_mismatch(nd)
	f := finding.netdev(nd, sprintf("%s %s", [nd.name, why]), finding.evidence(nd, ["ipoib_mode", "mtu"]))
}

policy_mismatch(nd) := sprintf("runs MTU %d but the site profile wants %d", [nd.mtu, input.profile.ipoib.mtu]) if {
	is_number(nd.mtu)
	nd.mtu != input.profile.ipoib.mtu
} else := sprintf("runs %s mode but the site profile wants %s", [nd.ipoib_mode, input.profile.ipoib.mode]) if {
	nd.ipoib_mode != ""
	lower(nd.ipoib_mode) != lower(input.profile.ipoib.mode)
}
