# METADATA
# title: Optical module reports DOM alarms or warnings
# description: >-
#   The module's digital optical monitoring flags an alarm or warning: low receive power (dirty or
#   damaged fibre, failing far-end laser), laser bias, supply voltage or temperature out of range.
#   Low receive power on a lane that should be lit is the usual cause of errors and link drops on
#   optical links. Passive DACs have no DOM; unused lanes of breakout cables read dark legitimately.
# scope: package
# related_resources:
#   - ref: https://git.kernel.org/pub/scm/network/ethtool/ethtool.git/tree/sff-8636.c
#   - ref: https://git.kernel.org/pub/scm/network/ethtool/ethtool.git/tree/cmis.c
# custom:
#   id: module-dom-alarm
#   area: link
#   severity: warning
#   confidence: high
#   requires: [ethtool_module]
#   explains: [eth-phy-errors, ib-symbol-errors, ib-link-flapping]
#   needs_reboot: false
#   fix:
#     - command: ethtool -m {{netdev}}
#       note: compare the flagged lanes' power with the thresholds; clean both fibre ends, reseat, swap optic ends to see whether the fault follows the module
#     - command: mlxlink -d {{pci}} -m
#       note: module temperature and power class; fix airflow for temperature alarms
#       when: {vendor: Mellanox}
package rdmadoctor.rules.module_dom_alarm

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.module

findings contains f if {
	some nd in input.netdevs
	module.ethernet(nd)
	m := nd.module
	object.get(m, "unreadable", "") == ""
	alarms := object.get(m, "alarms", [])
	count(alarms) > 0
	f := {
		"subject": module.subject(nd),
		"message": sprintf("%s module %s reports %s", [nd.name, ident(m), concat(", ", alarms)]),
		"evidence": finding.evidence(m, ["alarms", "vendor_pn"]),
		"severity": severity(alarms),
	}
}

# low receive power at alarm level means (almost) no light on the lane
severity(alarms) := "error" if {
	some a in alarms
	regex.match(`(?i)rx power low alarm`, a)
} else := "warning"

ident(m) := concat(" ", [x | some x in [object.get(m, "vendor_name", ""), object.get(m, "vendor_pn", "")]; x != ""]) if {
	object.get(m, "vendor_pn", "") != ""
} else := object.get(m, "identifier", "?")
