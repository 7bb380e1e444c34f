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

# port returns [device, port] of an IPoIB netdev; undefined when unknown.
port(nd) := [dev, p] if {
	some dev in input.devices
	object.get(dev, "capture", "") == ""
	some p in dev.ports
	join.netdev_name(dev, p) == nd.name
}
