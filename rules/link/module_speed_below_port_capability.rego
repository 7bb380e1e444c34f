# METADATA
# title: Module or cable is slower than the port
# description: >-
#   The plugged optic or cable is rated below the port, e.g. a 40G QSFP+ module in a 100G port or
#   an FDR-rated cable on an EDR adapter, so the link trains at the module's rate (or not at all).
#   Intentional slower deployments exist (the switch only does 40G); the module is then still the cap.
#   The port's capability comes from ethtool's supported link modes, mlxlink's Enabled Link Speed,
#   the adapter's own description (mstconfig/mlxfwmanager "Description: ...; 100GbE; ..."), or
#   the adapter model (rules/data/hca_models.yaml: a family's fastest part, so a bound only,
#   hence low confidence); the module's from ethtool -m or mlxlink's Supported Cable Speed and
#   Recommendation ("Cable speed not enabled").
# scope: package
# related_resources:
#   - ref: https://git.kernel.org/pub/scm/network/ethtool/ethtool.git/tree/sff-8636.c
#   - ref: https://docs.nvidia.com/networking/display/mftv4341lts/mlxlink+utility
# custom:
#   id: module-speed-below-port-capability
#   area: link
#   severity: warning
#   confidence: medium
#   requires:
#     - facts: [ethtool_module, ethtool]
#     - facts: [ethtool_module, rdma_devices]
#       confidence: low
#     - facts: [ethtool_module, ethtool_driver]
#       confidence: low
#     - facts: [ethtool_module, nvconfig]
#     - facts: [ethtool_module, firmware_query]
#     - facts: [mlxlink]
#   explains: [link-speed-degraded, link-width-degraded, perftest-bandwidth-below-path-limit]
#   needs_reboot: false
#   fix:
#     - command: ethtool -m {{netdev}}
#       note: Ethernet - identifier, compliance and vendor PN of the module; replace it with one rated for the port
#     - command: mlxlink -d {{mlxlink_device}} -m
#       note: Supported Cable Speed and the cable PN; use a cable rated for the adapter's speed (EDR/HDR/NDR, 100/200/400GbE)
#       when: {vendor: Mellanox}
package rdmadoctor.rules.module_speed_below_port_capability

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.mlxlink
import data.rdmadoctor.lib.module
import data.rdmadoctor.lib.rates

# Ethernet: ethtool -m says the module tops out below the port's fastest link mode.
findings contains f if {
	some nd in input.netdevs
	m := nd.module # first: most netdevs (VLANs, IPoIB) have no module data
	usable(nd, m)
	mod := module.max_gbps(m)
	cap := module.std_gbps(module.port_max_gbps(nd))
	mod < cap
	f := {
		"subject": module.subject(nd),
		"message": sprintf("%s holds a %vG %s module in a port that supports %vG: the link runs at the module's rate at best", [nd.name, mod, object.get(m, "identifier", "?"), cap]),
		"evidence": array.concat(
			finding.evidence(m, ["identifier", "compliance", "nominal_bit_rate_mbps", "vendor_pn"]),
			finding.evidence(nd, ["supported_link_modes", "max_supported_speed_mbps", "speed_mbps"]),
		),
		"vars": vars(nd),
	}
}

# Ethernet without link modes: the adapter model's fastest port. A slower part of the family
# would fit the module, so this is a hint.
findings contains f if {
	some nd in input.netdevs
	m := nd.module
	usable(nd, m)
	not module.port_max_gbps(nd)
	mod := module.max_gbps(m)
	c := module.adapter_cap(nd)
	cap := module.std_gbps(c.gbps)
	mod < cap
	f := {
		"subject": module.subject(nd),
		"message": model_message(nd, m, mod, c, cap),
		"evidence": array.concat(finding.evidence(m, ["identifier", "compliance", "nominal_bit_rate_mbps", "vendor_pn"]), c.evidence),
		"confidence": model_confidence(c),
		"vars": vars(nd),
	}
}

model_message(nd, m, mod, c, cap) := sprintf("%s holds a %vG %s module in a port of %s (%vG): the link runs at the module's rate at best", [nd.name, mod, object.get(m, "identifier", "?"), c.family, cap]) if {
	c.exact
} else := sprintf("%s holds a %vG %s module; %s adapters have ports up to %vG, so unless this part is a slower one the module caps the link", [nd.name, mod, object.get(m, "identifier", "?"), c.family, cap])

# the adapter's own description names the part: medium; its family only bounds it: low.
model_confidence(c) := "medium" if c.exact

else := "low"

usable(nd, m) if {
	module.ethernet(nd)
	object.get(m, "unreadable", "") == ""
	m.identifier != "CMIS"
}

vars(nd) := {"mlxlink_device": nd.pci_address} if {
	object.get(nd, "pci_address", "") != ""
} else := {}

# InfiniBand: mlxlink's Supported Cable Speed stops below the adapter's fastest lane speed.
findings contains f if {
	some ml in input.mlxlink
	ml.port_type != "PCIE"
	cable := ib_cable_top(ml)
	t := mlxlink.ca_type(ml)
	top := hca.ca_types[t].max_lane
	rates.lane_rank[cable] < rates.lane_rank[top]
	base := mlxlink.finding_for(
		ml,
		sprintf("the cable on %s supports at most %s but the %s adapter can run %s: the link is capped by the cable%s", [ml.device, cable, hca.ca_types[t].family, top, status_note(ml)]),
		array.concat(array.concat(finding.evidence(ml, ["supported_cable_speed", "speed", "cable_pn"]), mlxlink.ca_type_evidence(ml)), own_words(ml)),
	)
	f := object.union(base, grade(cable, top))
}

# A cable three or more generations below the adapter (SDR on EDR) costs as much as the
# link-speed-degraded error it explains.
grade(cable, top) := {"severity": "error"} if {
	rates.lane_rank[top] - rates.lane_rank[cable] >= 3
} else := {}

# Ethernet: mlxlink's Supported Cable Speed (Ext.) stops below the port's Enabled Link Speed.
findings contains f if {
	some ml in input.mlxlink
	ml.port_type != "PCIE"
	cable := module.eth_speeds_gbps(object.get(ml, "supported_cable_speed", ""))
	enabled := module.eth_speeds_gbps(object.get(ml, "enabled_link_speed", ""))
	count(cable) > 0
	count(enabled) > 0
	max(cable) < max(enabled)
	f := mlxlink.finding_for(
		ml,
		sprintf("the cable on %s supports at most %vG but the port is enabled for %vG: the link is capped by the cable%s", [ml.device, max(cable), max(enabled), status_note(ml)]),
		array.concat(finding.evidence(ml, ["supported_cable_speed", "enabled_link_speed", "speed", "cable_pn"]), own_words(ml)),
	)
}

# mlxlink's own words ("Cable speed not enabled") when the speed lists do not show it.
findings contains f if {
	some ml in input.mlxlink
	ml.port_type != "PCIE"
	mlxlink.names(ml, "module-speed-below-port-capability")
	not ib_capped(ml)
	not eth_capped(ml)
	f := mlxlink.finding_for(
		ml,
		sprintf("mlxlink on %s: %s - the cable or module is not rated for the speeds the port is enabled for", [ml.device, mlxlink.describe(ml)]),
		array.concat(mlxlink.status_evidence(ml), finding.evidence(ml, ["supported_cable_speed", "enabled_link_speed", "speed"])),
	)
}

# ib_cable_top is the fastest IB lane speed in Supported Cable Speed; undefined without one.
ib_cable_top(ml) := cable if {
	speeds := {s | some x in split(object.get(ml, "supported_cable_speed", ""), ","); s := upper(trim_space(x)); rates.lane_rank[s]}
	count(speeds) > 0
	best := max({rates.lane_rank[s] | some s in speeds})
	some cable in speeds
	rates.lane_rank[cable] == best
}

ib_capped(ml) if {
	t := mlxlink.ca_type(ml)
	rates.lane_rank[ib_cable_top(ml)] < rates.lane_rank[hca.ca_types[t].max_lane]
}

eth_capped(ml) if {
	cable := module.eth_speeds_gbps(object.get(ml, "supported_cable_speed", ""))
	enabled := module.eth_speeds_gbps(object.get(ml, "enabled_link_speed", ""))
	count(cable) > 0
	count(enabled) > 0
	max(cable) < max(enabled)
}

# own_words quotes mlxlink's troubleshooting info when it names this cause.
own_words(ml) := mlxlink.status_evidence(ml) if {
	mlxlink.names(ml, "module-speed-below-port-capability")
} else := []

status_note(ml) := sprintf(" (mlxlink: %s)", [mlxlink.describe(ml)]) if {
	mlxlink.names(ml, "module-speed-below-port-capability")
} else := ""
