# METADATA
# title: Adapter GUIDs blank (all ones)
# description: >-
#   flint/mstflint query prints the node, port and system image GUIDs as ffffffffffffffff: the
#   GUID section of the flash is blank, as on cards pulled from OEM systems or flashed with a
#   generic image. InfiniBand and RoCE name a port by its GUID: the subnet manager cannot tell
#   two such cards apart (duplicate GUIDs), and GIDs and the node GUID in sysfs are wrong. Burning
#   new firmware keeps the blank GUIDs; set them with the `sg` command, from the values printed
#   on the board's label (or the vendor's record for its serial number).
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/networking/display/mftv4330/Setting+GUIDs+and+MACs
# custom:
#   id: device-guids-blank
#   area: firmware
#   severity: error
#   confidence: high
#   requires: [firmware_query]
#   needs_reboot: true
#   fix:
#     - command: mstflint -d {{pci}} -guid <node GUID from the board label> -mac <port 1 MAC from the board label> sg
#       note: flint with MFT; then reset the adapter or reboot
#       when: {vendor: Mellanox}
package rdmadoctor.rules.device_guids_blank

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.join

findings contains f if {
	some fw in input.firmware
	lower(object.get(fw, "base_guid", "")) in {"ffffffffffffffff", "0xffffffffffffffff"}
	f := finding.pci(
		join.nv_pci(fw), "",
		sprintf("%s has blank GUIDs (%s): the subnet manager and GIDs cannot identify its ports", [fw.device, fw.base_guid]),
		finding.evidence(fw, ["base_guid"]),
	)
}
