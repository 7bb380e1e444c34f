# METADATA
# title: Module or cable is slower than the port
# description: >-
#   The plugged optic or cable is rated below the port, e.g. a 40G QSFP+ module in a 100G port or
#   an FDR-rated cable on an EDR adapter, so the link trains at the module's rate (or not at all).
#   Intentional slower deployments exist (the switch only does 40G); the module is then still the cap.
# scope: package
# related_resources:
#   - ref: https://git.kernel.org/pub/scm/network/ethtool/ethtool.git/tree/sff-8636.c
#   - ref: https://docs.nvidia.com/networking/display/mftv4341lts/mlxlink+utility
# custom:
#   id: module-speed-below-port-capability
#   area: link
#   severity: warning
#   confidence: medium
#   requires: []
#   explains: [link-speed-degraded, link-width-degraded]
#   needs_reboot: false
#   fix:
#     - command: ethtool -m {{netdev}}
#       note: Ethernet - identifier, compliance and vendor PN of the module; replace it with one rated for the port
#     - command: mlxlink -d {{pci}} -m
#       note: InfiniBand - Supported Cable Speed and the cable PN; use a cable rated for the adapter's speed (EDR/HDR/NDR)
package rdmadoctor.rules.module_speed_below_port_capability

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.module
import data.rdmadoctor.lib.rates

# Ethernet: ethtool -m says the module tops out below the port's fastest link mode.
findings contains f if {
	some nd in input.netdevs
	m := nd.module # first: most netdevs (VLANs, IPoIB) have no module data
	module.ethernet(nd)
	object.get(m, "unreadable", "") == ""
	m.identifier != "CMIS"
	mod := module.max_gbps(m)
	cap := module.port_max_gbps(nd)
	mod < cap
	f := {
		"subject": module.subject(nd),
		"message": sprintf("%s holds a %vG %s module in a port that supports %vG: the link runs at the module's rate at best", [nd.name, mod, object.get(m, "identifier", "?"), cap]),
		"evidence": array.concat(
			finding.evidence(m, ["identifier", "compliance", "nominal_bit_rate_mbps", "vendor_pn"]),
			finding.evidence(nd, ["supported_link_modes", "max_supported_speed_mbps", "speed_mbps"]),
		),
	}
}

# InfiniBand: mlxlink's Supported Cable Speed stops below the adapter's fastest lane speed.
findings contains f if {
	some ml in input.mlxlink
	ml.port_type != "PCIE"
	ml.supported_cable_speed != ""
	t := module.mlxlink_type(ml)
	top := hca.ca_types[t].max_lane
	speeds := {s | some x in split(ml.supported_cable_speed, ","); s := upper(trim_space(x)); rates.lane_rank[s]}
	count(speeds) > 0
	best := max({rates.lane_rank[s] | some s in speeds})
	best < rates.lane_rank[top]
	some cable in speeds
	rates.lane_rank[cable] == best
	f := {
		"subject": mlxlink_subject(ml, t),
		"message": sprintf("the cable on %s supports at most %s but the %s adapter can run %s: the link is capped by the cable", [ml.device, cable, hca.ca_types[t].family, top]),
		"evidence": finding.evidence(ml, ["supported_cable_speed", "speed", "cable_pn"]),
	}
}

# mlxlink_subject names the RDMA device when exactly one device of that type is in the snapshot.
mlxlink_subject(ml, t) := {"device": names[0], "port": 1} if {
	names := sort({d.name | some d in input.devices; hca.ca_type(d) == t})
	count(names) == 1
} else := finding.compact({"pci": object.get(ml, "pci_address", "")})
