# METADATA
# title: IPoIB parent interface is down while its P_Key children are up
# description: >-
#   A P_Key child interface (ib0.8001@ib0) is up, but its parent IPoIB interface is
#   administratively down (ip prints M-DOWN on the child). With enhanced IPoIB (mlx5, ConnectX-4
#   and later) no traffic passes on a child until the parent is up: the children look UP and have
#   addresses, yet ping fails. Legacy IPoIB (mlx4) did not need the parent, so configurations that
#   worked on ConnectX-3 break after an upgrade.
# scope: package
# related_resources:
#   - ref: https://lore.kernel.org/linux-rdma/CAMGffE=3YYxv9i7_qQr3-Uv-NGr-7VsnMk8DTjR0YbX1vJBzXQ@mail.gmail.com/
#   - ref: https://www.kernel.org/doc/Documentation/infiniband/ipoib.txt
# custom:
#   id: ipoib-parent-down-children-up
#   area: ipoib
#   severity: error
#   confidence: high
#   requires: [netdevs]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ip link set {{parent}} up
#       note: the parent needs no address; keep it up at boot (ifcfg ONBOOT=yes, or a NetworkManager profile for the parent)
#     - command: ip -d link show {{netdev}}
#       note: expect the child without M-DOWN
package rdmadoctor.rules.ipoib_parent_down_children_up

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.ipoib

# The parent's own line says it is down.
findings contains f if {
	some nd in ipoib.children
	nd.admin_up == true
	par := ipoib.parent_of(nd)
	par.admin_up == false
	base := finding.netdev(
		nd,
		sprintf("%s is UP but its parent %s is DOWN: with enhanced IPoIB no traffic passes on the P_Key child until the parent is up", [nd.name, par.name]),
		array.concat(finding.evidence(nd, ["admin_up"]), finding.evidence(par, ["admin_up"])),
	)
	f := finding.with_fields(base, {"vars": {"parent": par.name}})
}

# Only the child is captured: its M-DOWN flag says the parent (its lower device) is down.
findings contains f if {
	some nd in ipoib.children
	nd.admin_up == true
	"M-DOWN" in object.get(nd, "flags", [])
	not ipoib.parent_of(nd)
	base := finding.netdev(
		nd,
		sprintf("%s is UP but flagged M-DOWN: its parent %s is down, and with enhanced IPoIB no traffic passes on the P_Key child until the parent is up", [nd.name, nd.parent]),
		finding.evidence(nd, ["flags"]),
	)
	f := finding.with_fields(base, {"vars": {"parent": nd.parent}, "confidence": "medium"})
}
