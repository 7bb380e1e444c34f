# METADATA
# title: InfiniBand link trained with fewer lanes than it has
# description: >-
#   An Active InfiniBand port runs 1X or 2X on an adapter built for 4X, which cuts bandwidth by 50-75%.
#   Usually one lane of the cable or transceiver failed. HDR100/NDR200 ports and splitter cables are
#   2X by design and are not reported; Ethernet (RoCE) ports reuse the IB rate names (25GbE prints
#   "1X EDR", a QSA 10GbE port "1X QDR") and are out of scope. Widths come from sysfs rate,
#   ibstatus and ibv_devinfo; from ibstat's total rate when only one width fits it ("Rate: 14" is
#   1X FDR, "Rate: 10 (FDR10)" 1X FDR10); and from ibportstate, whose LinkWidthEnabled tells a
#   link that trained down (the peer's side unknown: "could be" wider) from one set narrow on purpose.
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
#     - facts: [port_info]
#   explains: [perftest-bandwidth-below-path-limit]
#   needs_reboot: false
#   fix:
#     - command: mlxlink -d {{mlxlink_device}} -p {{port}} -c -e
#       note: per-lane errors and eye; reseat or replace the cable or transceiver, clean optics
#       when: {vendor: Mellanox}
#     - command: ethtool -m {{netdev}}
#       note: Ethernet - the module's per-lane receive and transmit power; reseat or replace the cable or transceiver, clean optics
#       when: {link_layer: Ethernet}
#     - command: iblinkinfo
#       note: '"Could be 4X" on this link confirms both ends can do more; bounce the link from the switch side after the swap'
package rdmadoctor.rules.link_width_degraded

import data.rdmadoctor.lib.fabric
import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.mlxlink
import data.rdmadoctor.lib.port
import data.rdmadoctor.lib.portinfo
import data.rdmadoctor.lib.rates

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
	not portinfo.of_port(dev, p) # ibportstate's view of the port says more, below
	base := finding.port(
		dev, p,
		sprintf("%s port %d is Active at %dX%s on a %dX-capable adapter%s", [dev.name, p.number, w, rate_note(p), full, type_note(dev)]),
		finding.evidence(p, ["width_lanes", "rate_gbps", "lane_speed"]),
	)
	f := finding.with_fields(base, object.union(grade(dev, w), mlxlink.device_vars(dev)))
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

# ibstat gives the total rate only: a rate that only one width (below the adapter's) explains.
findings contains f if {
	some dev in input.devices
	some p in dev.ports
	port.ib(p)
	port.active(p)
	not is_number(object.get(p, "width_lanes", null))
	full := hca.caps(dev).max_width
	ws := rates.possible_widths(p)
	count(ws) == 1
	some w in ws
	w < full
	not by_design(dev, w)
	not portinfo.of_port(dev, p)
	f := finding.with_fields(
		finding.port(
			dev, p,
			sprintf("%s port %d is Active at %v Gb/s, which only %dX%s gives, on a %dX-capable adapter%s", [dev.name, p.number, p.rate_gbps, w, lane_note(p, w), full, type_note(dev)]),
			finding.evidence(p, ["rate_gbps", "lane_speed"]),
		),
		object.union({"confidence": "medium"}, mlxlink.device_vars(dev)),
	)
}

# ibportstate: LinkWidthActive below the widest width both supported and enabled: the link
# trained narrower than this port allows (a failed lane, or a narrower peer: could be wider).
findings contains f if {
	some pi in portinfo.current
	portinfo.active(pi)
	w := pi.width_active
	allowed := {x | some x in pi.width_enabled; x in pi.width_supported}
	count(allowed) > 0
	w < max(allowed)
	not split_design(pi, w)
	f := finding.with_fields(
		portinfo.finding_for(
			pi,
			sprintf("%s is Active at %dX although %dX is supported and enabled (ibportstate): a lane failed or the peer is narrower - could be %dX", [portinfo.where(pi), w, max(allowed), max(allowed)]),
			finding.evidence(pi, ["width_active", "width_enabled", "width_supported", "link_state"]),
		),
		{"confidence": "medium"},
	)
}

# ibportstate: the link runs the widest enabled width, but LinkWidthEnabled was set below what
# the port supports (ibportstate ... width, opensm): limited by configuration, not by a fault.
findings contains f if {
	some pi in portinfo.current
	portinfo.active(pi)
	w := pi.width_active
	count(pi.width_enabled) > 0
	count(pi.width_supported) > 0
	w == max(pi.width_enabled)
	w < max(pi.width_supported)
	f := finding.with_fields(
		portinfo.finding_for(
			pi,
			sprintf("%s is Active at %dX because LinkWidthEnabled is %dX, although %dX is supported (ibportstate): the width is limited by configuration", [portinfo.where(pi), w, max(pi.width_enabled), max(pi.width_supported)]),
			finding.evidence(pi, ["width_active", "width_enabled", "width_supported"]),
		),
		{"confidence": "low", "severity": "info"},
	)
}

split_design(pi, w) if {
	dp := portinfo.device_port(pi)
	by_design(dp[0], w)
}

lane_note(p, w) := sprintf(" %s", [p.lane_speed]) if {
	object.get(p, "lane_speed", "") != ""
} else := sprintf(" %s", [rates.lane_of_gbps[p.rate_gbps / w]])
