# METADATA
# title: IPoIB interfaces
# description: Recognises IPoIB netdevs (link/infiniband, ib* names) and their RDMA port.
# scope: package
package rdmadoctor.lib.ipoib

import data.rdmadoctor.lib.join

netdev(nd) if nd.kind == "ipoib"

netdev(nd) if {
	object.get(nd, "kind", "") == ""
	regex.match(`^ib[a-z0-9]`, nd.name)
}

# port returns [device, port] of an IPoIB netdev (the first by device name when several ports
# claim it, e.g. a PF and its VFs); undefined when unknown.
port(nd) := join.port_of_netdev(nd.name)

# child holds for an IPoIB P_Key child interface: ip link names its parent ("ib0.8001@ib0").
child(nd) if {
	netdev(nd)
	object.get(nd, "parent", "") != ""
}

# parent_of returns the parent netdev of a child from the same capture; undefined when the
# parent's own record is not in the snapshot.
parent_of(nd) := par if {
	some par in input.netdevs
	par.name == nd.parent
	object.get(par, "capture", "") == object.get(nd, "capture", "")
}
