# METADATA
# title: Joins between facts
# description: >-
#   Links an RDMA device to its PCI address, netdev, lspci block and mstconfig query even when the
#   snapshot's own join left a field empty: from netdevs (ibdev2netdev, ethtool bus-info), mst
#   status, and, as a last resort, the only Mellanox function on a node with a single device when
#   the snapshot's join did not refuse that link (a source with status unjoined).
# scope: package
package rdmadoctor.lib.join

import data.rdmadoctor.lib.hca

# pci returns the PCI address (with domain) of dev, or "" when nothing links it.
pci(dev) := dev.pci_address if {
	dev.pci_address != ""
} else := a if {
	addrs := sort({nd.pci_address |
		some nd in input.netdevs
		nd.rdma_device == dev.name
		nd.pci_address != ""
	})
	a := addrs[0]
} else := a if {
	addrs := sort({m.pci_address |
		some m in input.mst_devices
		m.rdma_device == dev.name
		m.pci_address != ""
	})
	a := addrs[0]
} else := a if {
	# one physical device and one Mellanox PF in lspci: they are the same card, unless the
	# snapshot's own join found that they are not, or that nothing links them (unjoined)
	not dev.name in unjoined
	not hca.is_vf(dev)
	count(pf_names) == 1
	pf_names[dev.name]
	fns := sort([f.address | some f in input.pci; mellanox_pf(f)])
	count(fns) == 1
	a := fns[0]
} else := ""

# unjoined holds the devices the snapshot builder did not link to the node's only Mellanox
# function (facts/build join_pci.go): their evidence disagrees, or nothing links them.
unjoined contains src.origin if {
	some src in input.sources
	src.name == "join"
	src.status == "unjoined"
}

pf_names contains d.name if {
	some d in input.devices
	not hca.is_vf(d)
}

# mellanox_pf holds for a Mellanox/NVIDIA networking PCI physical function.
mellanox_pf(f) if {
	mellanox(f)
	not f.vf == true
	f.address != ""
}

mellanox(f) if f.vendor_id == "15b3"

mellanox(f) if {
	object.get(f, "vendor_id", "") == ""
	regex.match(`(?i)mellanox|connectx|bluefield`, object.get(f, "name", ""))
}

# pci_function returns the lspci block of dev; undefined when unknown.
pci_function(dev) := f if {
	a := pci(dev)
	a != ""
	some f in input.pci
	f.address == a
}

# netdev_name returns the netdev of port p of dev, or "".
netdev_name(dev, p) := p.netdev if {
	p.netdev != ""
} else := n if {
	names := sort({nd.name |
		some nd in input.netdevs
		nd.rdma_device == dev.name
		port_matches(nd, p)
	})
	n := names[0]
} else := ""

port_matches(nd, p) if nd.rdma_port == p.number

port_matches(nd, _) if nd.rdma_port == null

port_matches(nd, _) if not "rdma_port" in object.keys(nd)

# netdev returns the netdev object of port p of dev; undefined when unknown.
netdev(dev, p) := nd if {
	name := netdev_name(dev, p)
	name != ""
	some nd in input.netdevs
	nd.name == name
}

# netdevs_of_device is the set of netdev objects that belong to dev (by RDMA name or PCI address).
netdevs_of_device(dev) := {nd |
	some nd in input.netdevs
	belongs(nd, dev)
}

belongs(nd, dev) if nd.rdma_device == dev.name

belongs(nd, dev) if {
	a := pci(dev)
	a != ""
	nd.pci_address == a
}

# nvconfig returns the mstconfig query of dev; undefined when none can be linked.
nvconfig(dev) := q if {
	a := pci(dev)
	a != ""
	qs := [q | some q in input.nvconfig; nv_pci(q) == a]
	q := qs[0]
} else := q if {
	# a single query on a node with a single physical device, unless the snapshot's own join
	# refused to link that device to the node's only Mellanox function
	not dev.name in unjoined
	count(input.nvconfig) == 1
	count(pf_names) == 1
	pf_names[dev.name]
	q := input.nvconfig[0]
}

# nv_pci is the PCI address an mstconfig or flint query (anything with `device` and maybe
# `pci_address`) refers to: its own, else the one `mst status` gives its /dev/mst device ("" when
# unknown).
nv_pci(q) := q.pci_address if {
	q.pci_address != ""
} else := a if {
	some m in input.mst_devices
	m.path == q.device
	a := m.pci_address
} else := ""

# nv_device returns the RDMA device an mstconfig query belongs to; undefined when none.
nv_device(q) := d if {
	names := sort([d.name |
		some d in input.devices
		not hca.is_vf(d)
		object.get(d, "capture", "") == ""
		nvconfig(d) == q
	])
	some d in input.devices
	d.name == names[0]
	object.get(d, "capture", "") == ""
}

# port_of_netdev returns [device, port] whose netdev is name: the first by device name and port
# number when several claim it (a PF and its VFs); undefined when none.
port_of_netdev(name) := [dev, p] if {
	key := first_claims[name]
	some dev in input.devices
	object.get(dev, "capture", "") == ""
	dev.name == key[0]
	some p in dev.ports
	p.number == key[1]
}

# claims are [netdev name, device name, port number] of every port of the first capture, sorted.
claims := sort([[netdev_name(d, q), d.name, q.number] |
	some d in input.devices
	object.get(d, "capture", "") == ""
	some q in d.ports
])

# first_claims maps each netdev name of claims to [device name, port number] of its first claim:
# built once per evaluation, so that port_of_netdev, called for each IPoIB netdev by several
# rules, looks the name up instead of walking every port. A claim is the first of its name when
# the one before it names another netdev (or there is none: claims[-1] is undefined).
first_claims := {c[0]: [c[1], c[2]] |
	some i, c in claims
	not claims[i - 1][0] == c[0]
}
