# METADATA
# title: InfiniBand link trained with fewer lanes than it has
# description: >-
#   An Active InfiniBand port runs 1X or 2X on an adapter built for 4X, which cuts bandwidth by 50-75%.
#   Usually one lane of the cable or transceiver failed. HDR100/NDR200 ports and splitter cables are
#   2X by design and are not reported; Ethernet (RoCE) ports reuse the IB rate names (25GbE prints
#   "1X EDR", a QSA 10GbE port "1X QDR") and are out of scope.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/iblinkinfo.c
#   - ref: https://docs.nvidia.com/networking/display/ibdiagnetutilityv2230/Fabric+Links+Validation
# custom:
#   id: link-width-degraded
#   area: link
#   severity: error
#   confidence: high
#   requires:
#     - facts: [ib_ports]
#     - facts: [fabric_ports]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: mlxlink -d {{pci}} -p {{port}} -c -e
#       note: per-lane errors and eye; reseat or replace the cable or transceiver, clean optics
#     - command: iblinkinfo
#       note: '"Could be 4X" on this link confirms both ends can do more; bounce the link from the switch side after the swap'
package rdmadoctor.rules.link_width_degraded

import data.rdmadoctor.lib.fabric
import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.port

findings contains f if {
	some dev in input.devices
	some p in dev.ports
	port.ib(p)
	port.active(p)
	w := p.width_lanes
	w > 0
	full := max_width(dev)
	w < full
	not by_design(dev, w)
	base := finding.port(
		dev, p,
		sprintf("%s port %d is Active at %dX%s on a %dX-capable adapter%s", [dev.name, p.number, w, rate_note(p), full, type_note(dev)]),
		finding.evidence(p, ["width_lanes", "rate_gbps", "lane_speed"]),
	)
	f := finding.with_fields(base, grade(dev, w))
}

max_width(dev) := hca.caps(dev).max_width

max_width(dev) := 4 if not hca.caps(dev)

# 2X is the design width of HDR100/NDR200 adapters and splitter cables.
by_design(dev, 2) if hca.split_by_design[hca.ca_type(dev)]

rate_note(p) := sprintf(" (%v Gb/s)", [p.rate_gbps]) if is_number(p.rate_gbps)

else := ""

type_note(dev) := sprintf(" (%s, %s)", [hca.ca_type(dev), hca.caps(dev).family]) if hca.caps(dev)

else := ""

# 1X is a failed lane; 2X on an older adapter, or an adapter we do not know, is less certain.
grade(dev, w) := {} if {
	w == 1
	hca.caps(dev)
} else := {"confidence": "medium"}

# the fabric's ports as ibdiagnet2 read them (lib/fabric), switch ports and other hosts' HCAs
findings contains f if {
	some f in fabric.width_findings
}
