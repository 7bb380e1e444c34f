# METADATA
# title: IPv6 enabled on an IPoIB interface
# description: >-
#   Every IPv6-enabled IPoIB interface joins its own solicited-node multicast group. On large fabrics
#   (thousands of nodes) the SM and switches run out of multicast LIDs and joins fail; sites that do
#   not use IPv6 over IB usually disable it, or let the SM share one MLID for these groups. Sites
#   that do use IPv6 on IB (global addresses configured) must keep it: then this is only a note.
# scope: package
# related_resources:
#   - ref: https://lists.openfabrics.org/pipermail/general/2008-June/051217.html
#   - ref: https://github.com/linux-rdma/opensm
#   - ref: https://docs.kernel.org/infiniband/ipoib.html
# custom:
#   id: ipoib-ipv6-enabled
#   area: ipoib
#   severity: info
#   confidence: medium
#   requires: [netdevs]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: sysctl -w net.ipv6.conf.{{netdev}}.disable_ipv6=1
#       note: persist it in /etc/sysctl.d/90-ipoib-noipv6.conf - only where IPv6 over IB is not used
#     - command: echo 'consolidate_ipv6_snm_req TRUE' >> /etc/opensm/opensm.conf && systemctl restart opensm
#       note: alternatively on the SM host - one shared MLID for IPv6 solicited-node groups
package rdmadoctor.rules.ipoib_ipv6_enabled

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.ipoib

findings contains f if {
	some nd in ipoib.netdevs
	not wanted
	proof := enabled(nd)
	base := finding.netdev(nd, sprintf("IPv6 is enabled on IPoIB interface %s (%s)", [nd.name, proof]), finding.evidence(nd, ["disable_ipv6", "ipv6"]))
	f := object.union(base, object.union(subject_port(nd, base.subject), grade(nd)))
}

wanted if lower(input.profile.ipoib.ipv6) == "enabled"

enabled(nd) := "disable_ipv6 = 0" if {
	nd.disable_ipv6 == false
} else := sprintf("%d IPv6 address(es): %s", [count(nd.ipv6), concat(", ", [a.address | some a in nd.ipv6])]) if {
	count(object.get(nd, "ipv6", [])) > 0
}

# Policy says disabled: sure. Global addresses configured: the site likely uses IPv6, a note only.
grade(nd) := {"severity": "warning", "confidence": "high"} if {
	lower(input.profile.ipoib.ipv6) == "disabled"
} else := {"confidence": "low"} if {
	some a in object.get(nd, "ipv6", [])
	a.scope == "global"
} else := {}

subject_port(nd, s) := {"subject": object.union(s, {"device": dp[0].name, "port": dp[1].number})} if {
	dp := ipoib.port(nd)
} else := {}
