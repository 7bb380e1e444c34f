# METADATA
# title: Module is faster than the port supports
# description: >-
#   A transceiver built for a faster rate sits in a slower port, e.g. a 100G QSFP28 module in a
#   40/56G ConnectX-3 QSFP+ port. QSFP28 optics usually have no 40G mode, so the link never comes
#   up (many DACs and dual-rate optics do fall back, which is why a port that is up is left alone).
#   The port's capability comes from ethtool's supported link modes, or the adapter model
#   (rules/data/hca_models.yaml; mlx4_en drives ConnectX to ConnectX-3, none faster than 56GbE):
#   a module faster than the fastest part of the family is faster than the port. mlxlink's status
#   opcode 41 ("module cannot be set to the enabled rate") with a cable faster than the enabled
#   speeds says the same. It is an error when the link is down (ethtool's Link detected: no, the
#   RDMA port Down, mlxlink's State Down): the module is why. With the link's state unknown it is a
#   warning, as a dual-rate optic may still run at the port's rate.
# scope: package
# related_resources:
#   - ref: https://git.kernel.org/pub/scm/network/ethtool/ethtool.git/tree/sff-8636.c
#   - ref: https://docs.nvidia.com/networking/display/ConnectX3Pro
# custom:
#   id: module-speed-exceeds-port-capability
#   area: link
#   severity: error
#   confidence: medium
#   requires:
#     - facts: [ethtool_module, ethtool]
#     - facts: [ethtool_module, rdma_devices]
#     - facts: [ethtool_module, ethtool_driver]
#     - facts: [ethtool_module, nvconfig]
#     - facts: [ethtool_module, firmware_query]
#     - facts: [mlxlink]
#   explains: [port-physical-link-down]
#   needs_reboot: false
#   fix:
#     - command: ethtool -m {{netdev}}
#       note: the module's identifier and compliance codes; use a module of the port's speed (40G QSFP+ here), a dual-rate optic or a DAC
#     - command: ethtool {{netdev}}
#       note: Supported link modes is what the port can do; expect Link detected yes after the swap
package rdmadoctor.rules.module_speed_exceeds_port_capability

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.mlxlink
import data.rdmadoctor.lib.module

# ethtool: the module is faster than the port's fastest link mode.
findings contains f if {
	some nd in input.netdevs
	m := nd.module
	usable(nd, m)
	mod := module.max_gbps(m)
	cap := module.port_max_gbps(nd)
	mod > cap
	not module.link_up(nd)
	f := graded(nd, {
		"subject": module.subject(nd),
		"message": sprintf("%s holds a %vG %s module but the port supports at most %vG%s: the link cannot come up at the module's rate", [nd.name, mod, object.get(m, "identifier", "?"), cap, link_note(nd)]),
		"evidence": array.concat(
			finding.evidence(m, ["identifier", "compliance", "nominal_bit_rate_mbps"]),
			finding.evidence(nd, ["supported_link_modes", "max_supported_speed_mbps", "link_detected"]),
		),
	})
}

# The adapter model, without link modes: no part of the family has a port as fast as the module.
findings contains f if {
	some nd in input.netdevs
	m := nd.module
	usable(nd, m)
	not module.port_max_gbps(nd)
	mod := module.max_gbps(m)
	c := module.adapter_cap(nd)
	mod > c.gbps
	not module.link_up(nd)
	f := graded(nd, {
		"subject": module.subject(nd),
		"message": sprintf("%s holds a %vG %s module but %s ports run at most %vG%s: the link cannot come up at the module's rate", [nd.name, mod, object.get(m, "identifier", "?"), c.family, c.gbps, link_note(nd)]),
		"evidence": array.concat(
			finding.evidence(m, ["identifier", "compliance", "nominal_bit_rate_mbps"]),
			array.concat(c.evidence, finding.evidence(nd, ["link_detected"])),
		),
	})
}

# mlxlink: "Port is closed, module cannot be set to the enabled rate" with a cable faster than
# every speed the port is enabled for.
findings contains f if {
	some ml in input.mlxlink
	mlxlink.names(ml, "module-speed-mismatch")
	cable := module.eth_speeds_gbps(object.get(ml, "supported_cable_speed", ""))
	enabled := module.eth_speeds_gbps(object.get(ml, "enabled_link_speed", ""))
	count(cable) > 0
	count(enabled) > 0
	min(cable) > max(enabled)
	f0 := mlxlink.finding_for(
		ml,
		sprintf("mlxlink on %s: %s - the cable runs %vG and up, the port is enabled for at most %vG", [ml.device, mlxlink.describe(ml), min(cable), max(enabled)]),
		array.concat(mlxlink.status_evidence(ml), finding.evidence(ml, ["supported_cable_speed", "enabled_link_speed"])),
	)
	f := mlxlink_graded(ml, f0)
}

# graded keeps the rule's severity (error) when the netdev's link is known down, the module being
# why; with the link's state unknown the finding is a warning.
graded(nd, f) := f if link_down(nd)

else := finding.with_fields(f, {"severity": "warning"})

# mlxlink_graded: the same for mlxlink, whose State says whether the port is down.
mlxlink_graded(ml, f) := f if ml.state == "Down"

else := finding.with_fields(f, {"severity": "warning"})

# link_down holds when ethtool says Link detected: no, or the netdev's RDMA port is Down.
link_down(nd) if nd.link_detected == false

link_down(nd) if {
	dp := module.rdma_port(nd)
	dp[1].state == "Down"
}

usable(nd, m) if {
	module.ethernet(nd)
	object.get(m, "unreadable", "") == ""
}

link_note(nd) := " (Link detected: no)" if nd.link_detected == false

else := ""
