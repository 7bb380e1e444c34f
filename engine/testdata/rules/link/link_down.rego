# METADATA
# title: Port has no physical link
# description: The port is Polling or Disabled.
# scope: package
# custom:
#   id: link-down
#   area: link
#   severity: critical
#   confidence: high
#   requires: [ib_ports]
#   explains: [no-sm, ipoib-down]
#   fix:
#     - command: ibstat {{device}} {{port}}
package rdmadoctor.rules.link_down

import data.rdmadoctor.lib.subject

findings contains f if {
	some dev in input.devices
	some p in dev.ports
	p.physical_state in {"Polling", "Disabled"}
	f := object.union(
		{
			"subject": subject.port(dev, p),
			"message": sprintf("%s port %d is %s", [dev.name, p.number, p.physical_state]),
			"evidence": [p.evidence.physical_state],
		},
		unused(dev, p),
	)
}

# A port the profile marks unused is reported as info, ranked last.
unused(dev, p) := {"severity": "info", "scope": "unused_port"} if {
	input.profile.devices[dev.name].ports[format_int(p.number, 10)].unused
} else := {}
