# METADATA
# title: IPoIB P_Key child interface has a larger MTU than its parent
# description: >-
#   A P_Key child interface (ib1.8001@ib1) is configured with a larger MTU than its parent. With
#   enhanced IPoIB (mlx5, ConnectX-4 and later) the child shares the parent's resources, and packets
#   larger than the parent's MTU are lost: ping works, bulk TCP (iperf3, NFS, MPI over IPoIB)
#   stalls. The fix reported on linux-rdma was to give the child the parent's MTU on both ends.
# scope: package
# related_resources:
#   - ref: https://lore.kernel.org/linux-rdma/CAMGffEmKKMS9dX+PTefsuoD7C350JPZ3hBM6ASm9XuzxvV-7pQ@mail.gmail.com/
#   - ref: https://www.kernel.org/doc/Documentation/infiniband/ipoib.txt
# custom:
#   id: ipoib-child-mtu-exceeds-parent
#   area: ipoib
#   severity: warning
#   confidence: medium
#   requires: [netdevs]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ip link set {{netdev}} mtu {{mtu}}
#       note: the parent's MTU, on every node of the partition; or raise the parent's MTU to the child's if the fabric allows it
#     - command: ip -d link show {{netdev}}
#       note: make it persistent in the interface's configuration (ifcfg MTU=, NetworkManager infiniband.mtu)
package rdmadoctor.rules.ipoib_child_mtu_exceeds_parent

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.ipoib

findings contains f if {
	some nd in ipoib.children
	object.get(nd, "admin_up", null) != false # a child that is down carries no traffic yet
	par := ipoib.parent_of(nd)
	nd.mtu != null
	par.mtu != null
	nd.mtu > par.mtu
	base := finding.netdev(
		nd,
		sprintf("%s (P_Key child of %s) has MTU %d, its parent %s only %d: with enhanced IPoIB packets above %d are lost on the child (ping works, bulk TCP stalls)", [nd.name, par.name, nd.mtu, par.name, par.mtu, par.mtu]),
		array.concat(finding.evidence(nd, ["mtu"]), finding.evidence(par, ["mtu"])),
	)
	f := finding.with_fields(base, {"vars": {"mtu": par.mtu}})
}
