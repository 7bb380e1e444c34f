# METADATA
# title: PCIe link cannot carry the ports' line rate
# description: >-
#   The usable bandwidth of the adapter's PCIe link (LnkSta speed x width after line coding) is
#   below the summed rate of its Active ports, so they can never be filled, e.g. a 200G ConnectX-6 in
#   a Gen3 x16 slot (126 Gb/s). Real DMA goodput is another 10-15% lower, so the check allows 10%.
#   Dual-port cards used active/backup are fine in practice. A LnkSta from a fragment (`lspci -s X
#   -vvv | grep LnkSta`) counts when its address is the one the Active ports are joined to.
# scope: package
# related_resources:
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/pci/pci.h
#   - ref: https://docs.nvidia.com/networking/display/ConnectX6VPI/Introduction
# custom:
#   id: pcie-bandwidth-insufficient-for-port-rate
#   area: pcie
#   severity: warning
#   confidence: high
#   requires:
#     - facts: [lspci, ib_ports]
#     - facts: [lspci, netdevs]
#   explains: [perftest-bandwidth-below-path-limit]
#   needs_reboot: false
#   fix:
#     - command: lspci -vvv -s {{pci}}
#       note: LnkSta speed and width; move the card to a Gen4/Gen5 x16 slot on the right CPU, use a Socket-Direct card, or accept the cap
package rdmadoctor.rules.pcie_bandwidth_insufficient_for_port_rate

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.join
import data.rdmadoctor.lib.pcie
import data.rdmadoctor.lib.port

findings contains f if {
	some fn in input.pci
	adapter(fn)
	bw := pcie.bandwidth(fn.lnksta)
	rates := port_rates(fn.address)
	demand := sum([r | some r in rates])
	demand > 0
	bw < demand * 0.9
	base := finding.pci(
		fn.address, devname(fn.address),
		sprintf("PCIe link of %s carries about %.1f Gb/s (%vGT/s x%d) but its Active ports run %v Gb/s", [fn.address, bw, fn.lnksta.speed_gts, fn.lnksta.width, demand]),
		finding.evidence(fn, ["lnksta"]),
	)
	f := finding.with_fields(base, grade(bw, demand))
}

adapter(fn) if join.mellanox_pf(fn)

# a fragment's function (`lspci -s X -vvv | grep LnkSta`): no identity, but its address is a BDF
# the RDMA ports are joined to (port_rates), which is what makes it the adapter
adapter(fn) if {
	object.get(fn, "vendor_id", "") == ""
	object.get(fn, "name", "") == ""
	not fn.vf == true
	regex.match(`^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$`, fn.address)
}

# port_rates: the rate of each Active RDMA port on the function, else each linked netdev's speed.
port_rates(addr) := rs if {
	rs := [p.rate_gbps |
		some d in input.devices
		object.get(d, "capture", "") == ""
		join.pci(d) == addr
		some p in d.ports
		port.active(p)
		p.rate_gbps > 0
	]
	count(rs) > 0
} else := [g |
	some nd in input.netdevs
	nd.pci_address == addr
	nd.speed_mbps > 0
	nd.link_detected == true
	g := nd.speed_mbps / 1000
]

grade(bw, demand) := {"severity": "error"} if bw < demand * 0.6

else := {}

devname(addr) := names[0] if {
	names := sort({d.name | some d in input.devices; join.pci(d) == addr})
	count(names) > 0
} else := ""
