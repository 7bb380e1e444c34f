# METADATA
# title: Adapter carries an OEM firmware PSID
# description: >-
#   The adapter's PSID (board id) is not an NVIDIA/Mellanox one (MT_..., NVD...) but a server
#   vendor's (HP_, DEL, LNV, IBM, ...). The card works normally, but NVIDIA firmware tools and
#   bundles (mlxfwmanager --online, mlxup, DOCA-OFED) report "No matching image found" or refuse
#   to update it, and the vendor's firmware may follow its own release cadence and defaults.
#   Updates go through the server vendor's channel; cross-flashing NVIDIA firmware voids support.
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/networking/display/mlxuprnv4250/Supported+Adapters+Cards+and+Firmware+Versions
#   - ref: https://github.com/Mellanox/mstflint/issues/1157
#   - ref: https://www.kernel.org/doc/Documentation/ABI/stable/sysfs-class-infiniband
# custom:
#   id: oem-firmware-psid
#   area: firmware
#   severity: info
#   confidence: high
#   requires: []
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: "# update through {{vendor}}'s tools (HPE SPP, Dell DSU/iDRAC, Lenovo XClarity, ...)"
#       note: NVIDIA's mlxfwmanager/mlxup have no image for PSID {{psid}}; "No matching image found" is expected
package rdmadoctor.rules.oem_firmware_psid

import data.rdmadoctor.lib.finding

vendors := {
	"HP": "HPE",
	"DEL": "Dell",
	"LNV": "Lenovo",
	"IBM": "IBM",
	"SM_": "Supermicro",
	"CIS": "Cisco",
	"ORC": "Oracle",
	"FJ": "Fujitsu",
}

nvidia(psid) if startswith(psid, "MT_")

nvidia(psid) if startswith(psid, "NVD")

oem(psid) if {
	psid != ""
	not nvidia(psid)
}

vendor(psid) := vendors[p] if {
	some p in object.keys(vendors)
	startswith(psid, p)
} else := "the server vendor"

message(name, psid) := sprintf("%s has the OEM PSID %s (%s firmware): NVIDIA firmware bundles and online updates do not apply to it", [name, psid, vendor(psid)])

vars(psid) := {"psid": psid, "vendor": vendor(psid)}

# RDMA devices (sysfs board_id, ibv_devinfo board_id).
findings contains f if {
	some dev in input.devices
	object.get(dev, "capture", "") == ""
	psid := object.get(dev, "board_id", "")
	oem(psid)
	f := finding.with_fields(finding.device(dev, message(dev.name, psid), finding.evidence(dev, ["board_id"])), {"vars": vars(psid)})
}

# flint / mlxfwmanager / mlxup queries of cards no RDMA device reports the PSID of.
findings contains f if {
	some fw in input.firmware
	psid := object.get(fw, "psid", "")
	oem(psid)
	not device_reports(object.get(fw, "pci_address", ""))
	name := object.get(fw, "pci_address", fw.device)
	f := finding.with_fields(finding.pci(object.get(fw, "pci_address", ""), "", message(name, psid), finding.evidence(fw, ["psid"])), {"vars": vars(psid)})
}

# ethtool -i firmware-version "(PSID)" of netdevs whose card is reported by neither.
findings contains f if {
	some nd in input.netdevs
	psid := object.get(nd, "firmware_psid", "")
	psid != "" # oem's first test, here so that the many netdevs without a PSID skip the call
	oem(psid)
	not device_reports(object.get(nd, "pci_address", ""))
	not firmware_reports(object.get(nd, "pci_address", ""))
	f := finding.with_fields(finding.netdev(nd, message(nd.name, psid), finding.evidence(nd, ["firmware_psid", "firmware_version"])), {"vars": vars(psid)})
}

device_reports(addr) if {
	addr != ""
	some dev in input.devices
	dev.pci_address == addr
	oem(object.get(dev, "board_id", ""))
}

firmware_reports(addr) if {
	addr != ""
	some fw in input.firmware
	fw.pci_address == addr
	oem(object.get(fw, "psid", ""))
}
