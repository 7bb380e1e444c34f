# METADATA
# title: Firmware older than the current release for the adapter
# description: >-
#   The adapter runs firmware well behind the release the current driver bundle (DOCA/MLNX_OFED) is
#   tested with, or the update tool (mlxup, mlxfwmanager) itself says an update is available. Old
#   firmware causes subtle feature failures and known bugs; very old ConnectX firmware breaks QP
#   operations outright. OEM-branded cards follow their vendor's release cadence.
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/doca/archive/2-9-2/General+Support
#   - ref: https://docs.nvidia.com/networking/display/mftv4341lts/mlxfwmanager+-+firmware+update+and+query+tool
# custom:
#   id: firmware-outdated-for-driver
#   area: firmware
#   severity: info
#   confidence: medium
#   requires: []
#   explains: []
#   needs_reboot: true
#   fix:
#     - command: mlxfwmanager --online -u -d {{pci}}
#       note: NVIDIA-branded cards (or mlxup); OEM PSIDs need the OEM's firmware package
#     - command: mstfwreset -d {{pci}} --level 3 -y reset
#       note: activates the new image where supported; otherwise reboot
package rdmadoctor.rules.firmware_outdated_for_driver

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.firmware
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.version

# The update tool reports a newer image for this PSID.
findings contains f if {
	some fw in input.firmware
	fw.version != ""
	newer(fw)
	f := finding.with_fields(
		finding.pci(fw_pci(fw), "", sprintf("%s %s runs firmware %s; %s reports %s", [object.get(fw, "device_type", "adapter"), fw.device, fw.version, fw.tool, update_note(fw)]), finding.evidence(fw, ["version", "available_version", "status"])),
		{"confidence": "high"},
	)
}

# An RDMA device's running firmware is older than the reference for its CA type.
findings contains f if {
	some dev in input.devices
	not hca.is_vf(dev)
	t := hca.ca_type(dev)
	min := firmware.minimum[t]
	version.less(dev.firmware, min)
	f := finding.device(dev, sprintf("%s (%s) runs firmware %s, older than %s%s", [dev.name, t, dev.firmware, min, ref_note(t)]), finding.evidence(dev, ["firmware", "ca_type"]))
}

# A flint/mstflint query of a device no RDMA device entry covers.
findings contains f if {
	some fw in input.firmware
	fw.version != ""
	not newer(fw)
	t := hca.type_of_firmware(fw)
	min := firmware.minimum[t]
	version.less(fw.version, min)
	not device_reported(t)
	f := finding.pci(fw_pci(fw), "", sprintf("%s (%s) runs firmware %s, older than %s%s", [fw.device, t, fw.version, min, ref_note(t)]), finding.evidence(fw, ["version", "psid"]))
}

newer(fw) if regex.match(`(?i)update required`, object.get(fw, "status", ""))

newer(fw) if version.less(fw.version, fw.available_version)

update_note(fw) := sprintf("%s available (%s)", [fw.available_version, fw.status]) if {
	object.get(fw, "available_version", "") != ""
	object.get(fw, "status", "") != ""
} else := sprintf("%s available", [fw.available_version]) if {
	object.get(fw, "available_version", "") != ""
} else := fw.status

ref_note(t) := sprintf(" (the current release for this adapter is %s)", [firmware.reference[t]]) if {
	firmware.reference[t] != firmware.minimum[t]
} else := " (its last release)"

fw_pci(fw) := fw.pci_address if {
	fw.pci_address != ""
} else := a if {
	some m in input.mst_devices
	m.path == fw.device
	a := m.pci_address
} else := ""

device_reported(t) if {
	some dev in input.devices
	hca.ca_type(dev) == t
	dev.firmware != ""
}
