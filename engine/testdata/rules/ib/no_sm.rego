# METADATA
# title: IB port has no subnet manager
# description: >-
#   The port is not Active and no SM has a LID for it.
# scope: package
# related_resources:
#   - ref: https://example.org/no-sm
# custom:
#   id: no-sm
#   area: ib
#   severity: critical
#   confidence: high
#   requires: [ib_ports]
#   explains: [ipoib-down]
#   fix:
#     - command: sminfo -C {{device}} -P {{port}}
#       note: does any SM answer?
#     - command: systemctl enable --now opensm
package rdmadoctor.rules.no_sm

import data.rdmadoctor.lib.subject

findings contains f if {
	some dev in input.devices
	some p in dev.ports
	p.link_layer == "InfiniBand"
	p.state != "Active"
	p.sm_lid == 0
	f := {
		"subject": subject.port(dev, p),
		"message": sprintf("%s port %d is %s with SM lid 0", [dev.name, p.number, p.state]),
		"evidence": [p.evidence.state, p.evidence.sm_lid],
	}
}
