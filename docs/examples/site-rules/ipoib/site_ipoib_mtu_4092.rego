# METADATA
# title: IPoIB interface not at the site MTU of 4092
# description: >-
#   Our storage gateways run IPoIB in datagram mode, whose largest MTU on a 4K IB MTU fabric is
#   4092. A node whose IPoIB interface runs another MTU (65520 in connected mode, 2044 after a
#   bad ifcfg file) fragments or drops traffic to the gateways and NFS mounts hang.
# scope: package
# related_resources:
#   - ref: https://docs.kernel.org/infiniband/ipoib.html
# custom:
#   id: site-ipoib-mtu-4092
#   area: ipoib
#   severity: error
#   confidence: high
#   requires: [netdevs]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: echo datagram > /sys/class/net/{{netdev}}/mode && ip link set {{netdev}} mtu 4092
#       note: now; make it permanent in the interface's NetworkManager profile (infiniband.mtu 4092, transport-mode datagram)
#     - command: ip -d link show {{netdev}}
#       note: expect mtu 4092
package rdmadoctor.rules.site_ipoib_mtu_4092

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.ipoib

# site_mtu is this site's IPoIB MTU. A rule shared between sites would read it from the profile
# instead: input.profile.ipoib.mtu (docs/profiles.md).
site_mtu := 4092

findings contains f if {
	some nd in input.netdevs
	ipoib.netdev(nd)
	nd.mtu != null
	nd.mtu != site_mtu
	f := finding.netdev(
		nd,
		sprintf("%s runs MTU %d; IPoIB on this site runs %d (datagram mode)", [nd.name, nd.mtu, site_mtu]),
		finding.evidence(nd, ["mtu"]),
	)
}
