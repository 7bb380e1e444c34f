# METADATA
# title: Module is faster than the port supports
# description: >-
#   A transceiver built for a faster rate sits in a slower port, e.g. a 100G QSFP28 module in a
#   40/56G ConnectX-3 QSFP+ port. QSFP28 optics usually have no 40G mode, so the link never comes
#   up (many DACs and dual-rate optics do fall back, which is why a port that is up is left alone).
# scope: package
# related_resources:
#   - ref: https://git.kernel.org/pub/scm/network/ethtool/ethtool.git/tree/sff-8636.c
#   - ref: https://docs.nvidia.com/networking/display/ConnectX3Pro
# custom:
#   id: module-speed-exceeds-port-capability
#   area: link
#   severity: warning
#   confidence: medium
#   requires: [ethtool_module]
#   explains: [port-physical-link-down]
#   needs_reboot: false
#   fix:
#     - command: ethtool -m {{netdev}}
#       note: the module's identifier and compliance codes; use a module of the port's speed (40G QSFP+ here), a dual-rate optic or a DAC
#     - command: ethtool {{netdev}}
#       note: Supported link modes is what the port can do; expect Link detected yes after the swap
package rdmadoctor.rules.module_speed_exceeds_port_capability

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.module

findings contains f if {
	some nd in input.netdevs
	module.ethernet(nd)
	m := nd.module
	object.get(m, "unreadable", "") == ""
	mod := module.max_gbps(m)
	cap := module.port_max_gbps(nd)
	mod > cap
	not module.link_up(nd)
	f := {
		"subject": module.subject(nd),
		"message": sprintf("%s holds a %vG %s module but the port supports at most %vG%s: the link cannot come up at the module's rate", [nd.name, mod, object.get(m, "identifier", "?"), cap, link_note(nd)]),
		"evidence": array.concat(
			finding.evidence(m, ["identifier", "compliance", "nominal_bit_rate_mbps"]),
			finding.evidence(nd, ["supported_link_modes", "max_supported_speed_mbps", "link_detected"]),
		),
	}
}

link_note(nd) := " (Link detected: no)" if nd.link_detected == false

else := ""
