# METADATA
# title: InfiniBand link runs a slower lane speed than the adapter supports
# description: >-
#   An Active InfiniBand port trained at a lower generation than the adapter can do (e.g. FDR 56 on
#   an EDR ConnectX-4). The usual causes are a cable rated for the lower speed, a slower switch or a
#   speed limit configured on the peer. When only the adapter's side is known the slower peer may be
#   legitimate, hence medium confidence; iblinkinfo's "Could be" hint confirms it. Host-side
#   sources: the port's rate (sysfs, ibstat, ibstatus, ibv_devinfo), mlxlink's Speed (IB-FDR) and
#   its Status Opcode 34/35 ("Speed degradation"), and ibportstate's LinkSpeedActive against the
#   speeds both supported and enabled on the port (a speed set low on purpose is only info).
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/iblinkinfo.c
#   - ref: https://docs.nvidia.com/networking/display/ufmenterpriseumv6113/fabric+validation+tab
# custom:
#   id: link-speed-degraded
#   area: link
#   severity: warning
#   confidence: medium
#   requires:
#     - facts: [ib_ports]
#     - facts: [mlxlink]
#     - facts: [port_info]
#     - facts: [iblinkinfo]
#   explains: [perftest-bandwidth-below-path-limit]
#   needs_reboot: false
#   fix:
#     - command: mlxlink -d {{mlxlink_device}} -p {{port}} -m
#       note: Supported Cable Speed and cable PN - use a cable rated for the adapter's speed
#       when: {vendor: Mellanox}
#     - command: ethtool -m {{netdev}}
#       note: Ethernet - the module's identifier, compliance codes and vendor PN; use a cable rated for the adapter's speed
#       when: {link_layer: Ethernet}
#     - command: iblinkinfo
#       note: the peer switch port's speed and any "Could be" hint; check the switch port's speed configuration
package rdmadoctor.rules.link_speed_degraded

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
	top := hca.caps(dev).max_lane
	lane := rates.best_lane(p)
	rates.lane_rank[lane] < rates.lane_rank[top]
	not peer_at_max(p)
	not portinfo.of_port(dev, p) # ibportstate's view of the port says more, below
	base := finding.port(
		dev, p,
		sprintf("%s port %d is Active at %v Gb/s (%s lanes) but the %s (%s) supports %s", [dev.name, p.number, p.rate_gbps, lane, hca.caps(dev).family, hca.ca_type(dev), top]),
		finding.evidence(p, ["rate_gbps", "lane_speed", "width_lanes"]),
	)
	f := finding.with_fields(base, object.union(object.union(confidence(dev, p, lane), grade(lane, top)), mlxlink.device_vars(dev)))
}

# iblinkinfo_links are the iblinkinfo lines about this port, seen from either end.
links(p) := [l |
	some l in input.fabric.links
	is_number(p.lid)
	p.lid > 0
	seen(l, p)
]

seen(l, p) if {
	l.lid == p.lid
	l.port == p.number
}

seen(l, p) if {
	l.peer_lid == p.lid
	l.peer_port == p.number
}

# iblinkinfo prints "Could be" only when both ends support more: its absence clears the link.
peer_at_max(p) if {
	count(links(p)) > 0
	every l in links(p) {
		object.get(l, "could_be", "") == ""
	}
}

confidence(dev, p, lane) := {"confidence": "high"} if {
	some l in links(p)
	contains(object.get(l, "could_be", ""), "Gbps")
} else := {"confidence": "low", "severity": "info"} if {
	# ConnectX-3 was also sold as QDR-only parts (e.g. MCX353A-QCBT) with the same CA type, and
	# QDR switches are common where these cards run: without the peer's view this is a hint only.
	hca.ca_type(dev) in {"MT4099", "MT4103"}
	lane in {"QDR", "FDR10"}
} else := {}

# two or more generations low (QDR on an HDR adapter) is an error (rule-catalog 4.9).
grade(lane, top) := {"severity": "error"} if {
	rates.lane_rank[top] - rates.lane_rank[lane] >= 3
} else := {}

# mlxlink: Speed IB-<lane> on an Active port below the adapter's fastest lane, where no port rate
# of an adapter of that type is in the snapshot (the port rules above judge those).
findings contains f if {
	some ml in input.mlxlink
	ml.port_type != "PCIE"
	ml.state == "Active"
	lane := mlxlink.lane_of_speed(ml)
	rates.lane_rank[lane]
	t := mlxlink.ca_type(ml)
	top := hca.ca_types[t].max_lane
	rates.lane_rank[lane] < rates.lane_rank[top]
	not rate_known(t)
	base := mlxlink.finding_for(
		ml,
		sprintf("mlxlink on %s: Active at %s%s but the %s (%s) supports %s%s%s", [ml.device, lane, width_note(ml), hca.ca_types[t].family, t, top, enabled_note(ml), status_note(ml)]),
		array.concat(
			array.concat(finding.evidence(ml, ["speed", "width_lanes", "enabled_link_speed", "supported_cable_speed"]), mlxlink.ca_type_evidence(ml)),
			status_evidence(ml),
		),
	)
	f := finding.with_fields(base, grade(lane, top))
}

# mlxlink's own words (Status Opcode 34/35, speed degradation) where the speeds do not show it.
findings contains f if {
	some ml in input.mlxlink
	ml.port_type != "PCIE"
	c := mlxlink.names(ml, "link-speed-degraded")
	not mlxlink_below_adapter(ml)
	f := mlxlink.finding_for(
		ml,
		sprintf("mlxlink on %s: %s (%s)", [ml.device, mlxlink.describe(ml), c.meaning]),
		array.concat(mlxlink.status_evidence(ml), finding.evidence(ml, ["speed"])),
	)
}

# ibportstate: LinkSpeedActive below the fastest speed both supported and enabled: the link
# trained slower than this port allows (the cable or the peer holds it back: could be faster).
findings contains f if {
	some pi in portinfo.current
	portinfo.active(pi)
	lane := pi.speed_active
	allowed := [x | some x in pi.speed_enabled; x in pi.speed_supported]
	best := portinfo.top_lane(allowed)
	rates.lane_rank[lane] < rates.lane_rank[best]
	base := portinfo.finding_for(
		pi,
		sprintf("%s is Active at %s although %s is supported and enabled (ibportstate): the cable or the peer holds it back - could be %s", [portinfo.where(pi), lane, best, best]),
		finding.evidence(pi, ["speed_active", "speed_enabled", "speed_supported", "link_state"]),
	)
	f := finding.with_fields(base, object.union({"confidence": "medium"}, grade(lane, best)))
}

# ibportstate: the link runs the fastest enabled speed, but faster ones are supported and not
# enabled (ibportstate ... speed/espeed, opensm): limited by configuration.
findings contains f if {
	some pi in portinfo.current
	portinfo.active(pi)
	lane := pi.speed_active
	en := portinfo.top_lane(pi.speed_enabled)
	sup := portinfo.top_lane(pi.speed_supported)
	lane == en
	rates.lane_rank[lane] < rates.lane_rank[sup]
	base := portinfo.finding_for(
		pi,
		sprintf("%s is Active at %s, the fastest LinkSpeedEnabled, although %s is supported (ibportstate): the speed is limited by configuration", [portinfo.where(pi), lane, sup]),
		finding.evidence(pi, ["speed_active", "speed_enabled", "speed_supported"]),
	)
	f := finding.with_fields(base, {"confidence": "low", "severity": "info"})
}

# rate_known holds when an Active InfiniBand port of an adapter of CA type t has a rate: the port
# rules judge it, and an mlxlink report that cannot be joined to it must not repeat them.
rate_known(t) if {
	some d in input.devices
	hca.ca_type(d) == t
	some p in d.ports
	port.ib(p)
	port.active(p)
	is_number(p.rate_gbps)
}

mlxlink_below_adapter(ml) if {
	lane := mlxlink.lane_of_speed(ml)
	t := mlxlink.ca_type(ml)
	rates.lane_rank[lane] < rates.lane_rank[hca.ca_types[t].max_lane]
}

width_note(ml) := sprintf(" (%dX)", [ml.width_lanes]) if is_number(ml.width_lanes)

else := ""

enabled_note(ml) := sprintf("; Enabled Link Speed %s, Supported Cable Speed %s", [ml.enabled_link_speed, ml.supported_cable_speed]) if {
	object.get(ml, "enabled_link_speed", "") != ""
	object.get(ml, "supported_cable_speed", "") != ""
} else := ""

status_note(ml) := sprintf("; mlxlink: %s", [mlxlink.describe(ml)]) if {
	is_number(ml.status_opcode)
	ml.status_opcode != 0
} else := ""

status_evidence(ml) := finding.evidence(ml, ["status_opcode", "recommendation"]) if {
	is_number(ml.status_opcode)
	ml.status_opcode != 0
} else := []

# switch ports and other hosts' HCAs that iblinkinfo says could run faster (lib/fabric)
findings contains f if {
	some f in fabric.speed_findings
}
