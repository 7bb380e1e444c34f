# METADATA
# title: Firmware older than the current release for the adapter
# description: >-
#   The adapter runs firmware well behind the release the current driver bundle (DOCA/MLNX_OFED) is
#   tested with, or the update tool (mlxup, mlxfwmanager) itself says an update is available. Old
#   firmware causes subtle feature failures and known bugs; very old ConnectX firmware breaks QP
#   operations outright. OEM-branded cards follow their vendor's release cadence. The kernel says it
#   too: a driver that finds firmware older than a feature needs logs "please upgrade to later FW
#   version" (mlx4_en, with the feature it disabled) - a warning while the adapter works, an
#   error when the kernel registered no RDMA device at all (the listing tools find none; nothing
#   RDMA runs on the node, as with a port that is down), and critical when the same function's
#   probe then failed: the kernel refused the adapter, and this explains that failure.
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/doca/archive/2-9-2/General+Support
#   - ref: https://docs.nvidia.com/networking/display/mftv4341lts/mlxfwmanager+-+firmware+update+and+query+tool
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/net/ethernet/mellanox/mlx4/en_main.c
#   - ref: https://github.com/clustervision/trinity/issues/219
# custom:
#   id: firmware-outdated-for-driver
#   area: firmware
#   severity: info
#   confidence: high
#   requires:
#     - facts: [firmware_query]
#     - facts: [rdma_devices]
#       confidence: medium
#     - facts: [kernel_log]
#   explains: [rdma-device-probe-failed]
#   needs_reboot: true
#   fix:
#     - command: mlxfwmanager --online -u -d {{pci}}
#       note: NVIDIA-branded cards (or mlxup); OEM PSIDs need the OEM's firmware package
#       when: {vendor: Mellanox}
#     - command: mstfwreset -d {{pci}} --level 3 -y reset
#       note: activates the new image where supported; otherwise reboot
#       when: {vendor: Mellanox}
package rdmadoctor.rules.firmware_outdated_for_driver

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.firmware
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.join
import data.rdmadoctor.lib.version

# The update tool reports a newer image for this PSID.
findings contains f if {
	some fw in input.firmware
	fw.version != ""
	newer(fw)
	f := finding.with_fields(
		finding.pci(join.nv_pci(fw), "", sprintf("%s %s runs firmware %s; %s reports %s", [object.get(fw, "device_type", "adapter"), fw.device, fw.version, fw.tool, update_note(fw)]), finding.evidence(fw, ["version", "available_version", "status"])),
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
	f := finding.with_fields(
		finding.device(dev, sprintf("%s (%s) runs firmware %s, older than %s%s", [dev.name, t, dev.firmware, min, ref_note(t)]), finding.evidence(dev, ["firmware", "ca_type"])),
		{"confidence": "medium"}, # a reference table, not the vendor's word
	)
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
	f := finding.with_fields(
		finding.pci(join.nv_pci(fw), "", sprintf("%s (%s) runs firmware %s, older than %s%s", [fw.device, t, fw.version, min, ref_note(t)]), finding.evidence(fw, ["version", "psid"])),
		{"confidence": "medium"},
	)
}

# A device of a type the reference table has whose running firmware the snapshot gives no
# version of (an empty sysfs fw_ver, a blank "Firmware version:", a masked xx.xx.xxxx), and that
# no firmware query of its type covers, is not judged: never a silent pass.
findings contains f if {
	some dev in input.devices
	not hca.is_vf(dev)
	t := hca.ca_type(dev)
	firmware.minimum[t]
	not version.parts(object.get(dev, "firmware", ""))
	not query_reported(t)
	f := finding.not_judged(
		finding.device(dev, sprintf("%s (%s): firmware not judged", [dev.name, t]), finding.evidence(dev, ["firmware", "ca_type"])),
		firmware.unknown_version(dev, "firmware"),
	)
}

# A firmware query (flint, mlxfwmanager, mlxup) whose version is blank or masked, of an adapter
# no RDMA device entry with a version covers, is not judged either.
findings contains f if {
	some fw in input.firmware
	not version.parts(object.get(fw, "version", ""))
	not newer(fw)
	t := hca.type_of_firmware(fw)
	firmware.minimum[t]
	not device_reported(t)
	f := finding.not_judged(
		finding.pci(join.nv_pci(fw), "", sprintf("%s (%s): firmware not judged", [fw.device, t]), finding.evidence(fw, ["version", "psid"])),
		firmware.unknown_version(fw, "version"),
	)
}

query_reported(t) if {
	some fw in input.firmware
	hca.type_of_firmware(fw) == t
	version.parts(fw.version)
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

device_reported(t) if {
	some dev in input.devices
	hca.ca_type(dev) == t
	version.parts(dev.firmware)
}

# The kernel asks for newer firmware (mlx4_en: "LSO not supported, please upgrade to later FW
# version to enable LSO"), one finding per PCI function it names.
findings contains f if {
	some addr in {object.get(ev, "pci_address", "") | some ev in upgrade_events}
	evs := [ev | some ev in upgrade_events; object.get(ev, "pci_address", "") == addr]
	f := finding.with_fields(
		finding.pci(addr, device_on(addr), sprintf("the kernel asks for newer firmware on %s: %q%s", [pci_label(addr), evs[0].evidence.text, refusal_note(addr)]), array.concat([ev.evidence | some ev in evs], refusal_evidence(addr))),
		{"confidence": "high", "severity": kernel_severity(addr)},
	)
}

upgrade_events := [ev | some ev in input.host.kernel_events; ev.kind == "firmware_upgrade_needed"]

pci_label(addr) := addr if addr != ""

else := "the adapter"

device_on(addr) := n if {
	addr != ""
	names := sort([d.name | some d in input.devices; join.pci(d) == addr])
	n := names[0]
} else := ""

# critical: the same function's probe failed after the request (the kernel refused the adapter);
# error: the kernel registered no RDMA device at all; warning: the adapter works without the feature.
kernel_severity(addr) := "critical" if {
	probe_failed(addr)
} else := "error" if {
	no_rdma_device
} else := "warning"

refusal_note(addr) := sprintf("; then the probe of %s failed", [addr]) if {
	probe_failed(addr)
} else := sprintf("; and the kernel registered no RDMA device (%s: %q)", [r.tool, r.message]) if {
	no_rdma_device
	r := no_device_refusals[0]
} else := ""

refusal_evidence(addr) := [no_device_refusals[0].evidence] if {
	not probe_failed(addr)
	no_rdma_device
} else := []

probe_failed(addr) if {
	addr != ""
	some ev in input.host.kernel_events
	ev.kind == "probe_failed"
	ev.pci_address == addr
}

no_rdma_device if {
	no_devices
	count(no_device_refusals) > 0
}

no_devices if not is_array(input.devices)

no_devices if count(input.devices) == 0

no_device_refusals := [m |
	some m in object.get(input.host, "userspace", [])
	m.tool in {"ibstat", "ibstatus", "ibv_devinfo", "ibv_devices"}
	regex.match(`No IB devices found|sys files not found|Failed to get IB devices list`, m.message)
]
