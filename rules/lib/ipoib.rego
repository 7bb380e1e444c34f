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
