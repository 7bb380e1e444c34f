# METADATA
# title: InfiniBand link runs a slower lane speed than the adapter supports
# description: >-
#   An Active InfiniBand port trained at a lower generation than the adapter can do (e.g. FDR 56 on
#   an EDR ConnectX-4). The usual causes are a cable rated for the lower speed, a slower switch or a
#   speed limit configured on the peer. When only the adapter's side is known the slower peer may be
#   legitimate, hence medium confidence; iblinkinfo's "Could be" hint confirms it.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/iblinkinfo.c
#   - ref: https://docs.nvidia.com/networking/display/ufmenterpriseumv6113/fabric+validation+tab
# custom:
#   id: link-speed-degraded
#   area: link
#   severity: warning
#   confidence: medium
#   requires: [ib_ports]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: mlxlink -d {{pci}} -p {{port}} -m
#       note: Supported Cable Speed and cable PN - use a cable rated for the adapter's speed
#     - command: iblinkinfo
#       note: the peer switch port's speed and any "Could be" hint; check the switch port's speed configuration
package rdmadoctor.rules.link_speed_degraded

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.port
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
	base := finding.port(
		dev, p,
		sprintf("%s port %d is Active at %v Gb/s (%s lanes) but the %s (%s) supports %s", [dev.name, p.number, p.rate_gbps, lane, hca.caps(dev).family, hca.ca_type(dev), top]),
		finding.evidence(p, ["rate_gbps", "lane_speed", "width_lanes"]),
	)
	f := finding.with_fields(base, object.union(confidence(dev, p, lane), grade(lane, top)))
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
