# METADATA
# title: Site intent
# description: >-
#   Reads the site profile (docs/profiles.md, facts.Profile): the intended fabric of a port is the
#   port's own setting, else its device's (by RDMA name or PCI address), else the node's.
# scope: package
package rdmadoctor.lib.intent

import data.rdmadoctor.lib.join

# device_intent returns the profile entry of dev, by name first, then by PCI address.
device_intent(dev) := input.profile.devices[dev.name]

device_intent(dev) := input.profile.devices[a] if {
	not input.profile.devices[dev.name]
	a := join.pci(dev)
	a != ""
}

port_intent(dev, p) := device_intent(dev).ports[format_int(p.number, 10)]

# fabric returns "ib" or "ethernet" for port p of dev; undefined without a profile saying so.
fabric(dev, p) := norm(port_intent(dev, p).fabric) if {
	object.get(port_intent(dev, p), "fabric", "") != ""
} else := norm(device_intent(dev).fabric) if {
	object.get(device_intent(dev), "fabric", "") != ""
} else := norm(input.profile.fabric) if {
	object.get(input.profile, "fabric", "") != ""
}

# fabric_of_pci is fabric() for an mstconfig query port that no RDMA device is known for.
fabric_of_pci(addr, n) := norm(input.profile.devices[addr].ports[format_int(n, 10)].fabric) if {
	object.get(input.profile.devices[addr].ports[format_int(n, 10)], "fabric", "") != ""
} else := norm(input.profile.devices[addr].fabric) if {
	object.get(input.profile.devices[addr], "fabric", "") != ""
} else := norm(input.profile.fabric) if {
	object.get(input.profile, "fabric", "") != ""
}

norm(f) := "ib" if {
	lower(f) in {"ib", "infiniband"}
} else := "ethernet" if {
	lower(f) in {"eth", "ethernet", "roce"}
}

# unused holds when the profile marks the port as deliberately not cabled.
unused(dev, p) if port_intent(dev, p).unused == true

# expected holds when the profile names the port and does not mark it unused.
expected(dev, p) if {
	port_intent(dev, p)
	not unused(dev, p)
}
