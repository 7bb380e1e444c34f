# METADATA
# title: IPoIB interfaces
# description: Recognises IPoIB netdevs (link/infiniband, ib* names) and their RDMA port.
# scope: package
package rdmadoctor.lib.ipoib

import data.rdmadoctor.lib.join

# netdevs are the IPoIB netdevs of input.netdevs, in its order. A complete rule, evaluated once
# per evaluation for every rule that walks them (netdev is a function: OPA keeps its successes,
# not the netdevs it rejects, so each caller would test every netdev again).
netdevs := [nd | some nd in input.netdevs; netdev(nd)]

# children are the IPoIB P_Key child interfaces of input.netdevs (see child), in its order.
children := [nd | some nd in netdevs; object.get(nd, "parent", "") != ""]

netdev(nd) if nd.kind == "ipoib"

netdev(nd) if {
	object.get(nd, "kind", "") == ""
	ib_name(nd.name)
}

# ib_name holds for a name that starts with "ib" and a lowercase letter or digit (ib0, ibp26s0,
# not "ib" alone, "ibA" or "ib-x"): what regex ^ib[a-z0-9] says, without the regex.
ib_name(name) if {
	startswith(name, "ib")
	substring(name, 2, 1) in ib_name_chars
}

ib_name_chars := {c | some c in split("abcdefghijklmnopqrstuvwxyz0123456789", "")}

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
