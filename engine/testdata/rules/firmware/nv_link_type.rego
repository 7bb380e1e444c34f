# METADATA
# title: Port protocol differs from the fabric
# description: Needs mstconfig output; skipped without it.
# scope: package
# custom:
#   id: nv-link-type
#   area: firmware
#   severity: critical
#   confidence: medium
#   requires: [nvconfig, ib_ports]
#   fix:
#     - command: mstconfig -d {{pci}} set LINK_TYPE_P{{port}}=1
package rdmadoctor.rules.nv_link_type

findings contains f if {
	some nv in input.nvconfig
	nv.device == "never"
	f := {"subject": {}, "message": "never", "evidence": []}
}
