# METADATA
# title: PCIe link narrower than capable
# description: The NIC trained with fewer lanes than it supports.
# scope: package
# custom:
#   id: pcie-slow
#   area: pcie
#   severity: warning
#   confidence: medium
#   requires: [lspci]
#   needs_reboot: true
#   fix:
#     - command: lspci -s {{pci}} -vv
#       note: LnkSta width {{width}}
#     - command: setpci -s {{bridge}} CAP_EXP+0x10.w
package rdmadoctor.rules.pcie_slow

findings contains f if {
	some fn in input.pci
	fn.lnksta.width < fn.lnkcap.width
	f := {
		"subject": {"pci": fn.address},
		"message": sprintf("%s runs x%d of x%d", [fn.address, fn.lnksta.width, fn.lnkcap.width]),
		"evidence": [fn.evidence.lnksta, fn.evidence.lnkcap],
		"vars": {"width": sprintf("x%d", [fn.lnksta.width])},
	}
}
