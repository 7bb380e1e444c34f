# METADATA
# title: InfiniBand ports but no IPoIB
# description: >-
#   The node has Active InfiniBand ports but ib_ipoib is not loaded and no IPoIB interface exists.
#   IPoIB addresses are what rdma_cm resolves to GIDs over InfiniBand, what NFS/RDMA and Lustre
#   (LNet o2ib) use to name peers, and what most job launchers bootstrap over; without them those
#   fail although verbs work. Sites that deliberately run without IPoIB can ignore this.
# scope: package
# related_resources:
#   - ref: https://docs.kernel.org/infiniband/ipoib.html
#   - ref: https://github.com/linux-rdma/rdma-core/tree/master/kernel-boot
# custom:
#   id: ipoib-module-missing
#   area: ipoib
#   severity: warning
#   confidence: medium
#   requires: [lsmod, ib_ports]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: modprobe ib_ipoib
#       note: creates ib0 (or ibp<bus>s<slot>) for each IB port
#     - command: echo ib_ipoib > /etc/modules-load.d/ib_ipoib.conf
#       note: persist, then configure the interface (NetworkManager type infiniband, or netplan/ifcfg)
package rdmadoctor.rules.ipoib_module_missing

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.ipoib
import data.rdmadoctor.lib.modules
import data.rdmadoctor.lib.port

findings contains f if {
	modules.absent("ib_ipoib")
	not some_ipoib_netdev
	ports := [sprintf("%s port %d", [d.name, p.number]) |
		some d in input.devices
		not hca.is_vf(d)
		object.get(d, "capture", "") == ""
		some p in d.ports
		port.ib(p)
		port.active(p)
	]
	count(ports) > 0
	f := finding.node(sprintf("%s %s Active on InfiniBand but ib_ipoib is not loaded and no IPoIB interface exists: rdma_cm address resolution, NFS/RDMA and Lustre o2ib need IPoIB addresses", [concat(", ", sort(ports)), verb(ports)]), modules.evidence)
}

some_ipoib_netdev if {
	some nd in ipoib.netdevs
}

verb(ports) := "is" if count(ports) == 1

else := "are"
