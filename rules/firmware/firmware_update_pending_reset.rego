# METADATA
# title: New firmware burned but not running
# description: >-
#   flint/mstflint query shows one version on flash (`FW Version:`) and an older one running
#   (`FW Version(Running):`): an image was burned and the adapter has not been reset since. Until
#   a firmware reset or reboot the old firmware, with its bugs and missing features, still runs;
#   burning the image again changes nothing. The reset, not another burn, is the fix.
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/networking/display/mftv4330/Burning+a+Firmware+Image
#   - ref: https://manpages.ubuntu.com/manpages/noble/en/man1/mstfwreset.1.html
# custom:
#   id: firmware-update-pending-reset
#   area: firmware
#   severity: warning
#   confidence: high
#   requires: [firmware_query]
#   explains: [firmware-outdated-for-driver]
#   needs_reboot: true
#   fix:
#     - command: mstfwreset -d {{pci}} --level 3 -y reset
#       note: loads the burned image (MFT - mlxfwreset); where not supported, reboot
#       when: {vendor: Mellanox}
#     - command: mstflint -d {{pci}} q
#       note: afterwards FW Version(Running) is gone and FW Version is the new one
#       when: {vendor: Mellanox}
package rdmadoctor.rules.firmware_update_pending_reset

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.firmware
import data.rdmadoctor.lib.join

findings contains f if {
	some fw in input.firmware
	object.get(fw, "pending_version", "") != ""
	fw.version != ""
	fw.pending_version != fw.version
	f := finding.pci(
		join.nv_pci(fw), "",
		sprintf("%s has firmware %s burned on flash but still runs %s: reset the adapter (or reboot) to run it, do not burn it again", [fw.device, fw.pending_version, fw.version]),
		finding.evidence(fw, ["pending_version", "version"]),
	)
}

# An image burned on flash while the running version is unknown (blank in the query) is not
# judged: whether a reset is pending cannot be told, and that is no pass.
findings contains f if {
	some fw in input.firmware
	object.get(fw, "pending_version", "") != ""
	trim_space(object.get(fw, "version", "")) == ""
	f := finding.not_judged(
		finding.pci(join.nv_pci(fw), "", sprintf("%s: pending firmware %s not judged", [fw.device, fw.pending_version]), finding.evidence(fw, ["pending_version", "version"])),
		sprintf("%s burned on flash is not compared: %s", [fw.pending_version, firmware.unknown_version(fw, "version")]),
	)
}
