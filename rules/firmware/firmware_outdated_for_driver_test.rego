package rdmadoctor.rules.firmware_outdated_for_driver_test

import data.rdmadoctor.rules.firmware_outdated_for_driver as rule

test_fires_on_mlxup_update_required if {
	# corpus 046
	fs := rule.findings with input as {
		"firmware": [{"tool": "mlxup", "device": "/dev/mst/mt4129_pciconf1", "device_type": "ConnectX7", "version": "28.40.1000", "available_version": "28.43.1014", "status": "Update required"}],
		"mst_devices": [{"path": "/dev/mst/mt4129_pciconf1", "pci_address": "0000:05:00.0"}],
	}
	count(fs) == 1
	some f in fs
	f.subject == {"pci": "0000:05:00.0"}
	f.confidence == "high"
}

test_fires_on_ancient_connectx if {
	# corpus 118: vendor_part_id 25418, fw 2.3.000
	fs := rule.findings with input as {"devices": [{"name": "mlx4_0", "ca_type": "25418", "firmware": "2.3.000", "ports": []}]}
	count(fs) == 1
}

test_fires_on_flint_query_of_old_connectx3 if {
	# corpus 045: flint query of /dev/mst/mt4099_pci_cr0 shows 2.35.5100
	fs := rule.findings with input as {"firmware": [{"tool": "flint", "device": "/dev/mst/mt4099_pci_cr0", "version": "2.35.5100", "psid": "MT_1170110023"}]}
	count(fs) == 1
}

test_no_finding_on_current_firmware if {
	count(rule.findings) == 0 with input as {
		"devices": [{"name": "mlx5_0", "ca_type": "MT4129", "firmware": "28.43.2566", "ports": []}],
		"firmware": [{"tool": "mlxup", "device": "/dev/mst/mt4129_pciconf1", "device_type": "ConnectX7", "version": "28.43.2566", "available_version": "28.43.2566", "status": "Up to date"}],
	}
}

test_no_finding_for_unknown_type if {
	count(rule.findings) == 0 with input as {"devices": [{"name": "mthca0", "ca_type": "MT25208", "firmware": "5.1.400", "ports": []}]}
}

test_no_finding_for_ddr_connectx_on_2_9 if {
	# corpus 010: MT25418 on 2.9.1000
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx4_0", "ca_type": "MT25418", "firmware": "2.9.1000", "ports": []}]}
}

# fixtures/dmesg/mlx4-en-lso-upgrade-fw.txt and fixtures/ibstatus/sys-files-not-found.txt
# (clustervision/trinity#219: fixed by a firmware update)
lso := {"kind": "firmware_upgrade_needed", "driver": "mlx4_en", "pci_address": "0000:0d:00.0", "evidence": {"source": "dmesg", "line": 2, "text": "[  939.318810] mlx4_en 0000:0d:00.0: LSO not supported, please upgrade to later FW version to enable LSO"}}

no_device := {"tool": "ibstatus", "message": "Fatal error:  device '*': sys files not found (/sys/class/infiniband/*/ports)", "evidence": {"line": 1}}

test_fires_as_error_when_the_kernel_asks_and_no_device_registered if {
	fs := rule.findings with input as {"host": {"kernel_events": [lso], "userspace": [no_device]}, "devices": []}
	count(fs) == 1
	some f in fs
	f.severity == "error"
	f.confidence == "high"
	f.subject == {"pci": "0000:0d:00.0"}
	contains(f.message, "registered no RDMA device")
}

test_fires_as_warning_while_the_adapter_works if {
	dev := {"name": "mlx4_0", "pci_address": "0000:0d:00.0", "firmware": "2.42.5000", "ca_type": "MT4099"}
	fs := rule.findings with input as {"host": {"kernel_events": [lso]}, "devices": [dev]}
	some f in fs
	f.severity == "warning"
	f.subject == {"pci": "0000:0d:00.0", "device": "mlx4_0"}
}

test_fires_as_critical_when_the_probe_then_failed if {
	probe := {"kind": "probe_failed", "driver": "mlx4_core", "pci_address": "0000:0d:00.0", "evidence": {"line": 5}}
	fs := rule.findings with input as {"host": {"kernel_events": [lso, probe]}}
	some f in fs
	f.severity == "critical"
}

test_no_finding_for_other_kernel_lines if {
	# the same log's "UDP RSS is not supported on this device" asks for no firmware
	e := {"kind": "other", "driver": "mlx4_en", "pci_address": "0000:0d:00.0", "evidence": {"line": 3}}
	count(rule.findings) == 0 with input as {"host": {"kernel_events": [e], "userspace": [no_device]}}
}

# An empty fw_ver (sysfs file present but empty), a blank ibstat "Firmware version:" or a
# masked version is unknown, not a pass: the device is not judged (the engine lists the rule
# as skipped, naming it).
test_not_judged_on_blank_firmware if {
	# corpus 003: mlx5_1 is an MT4125 (ConnectX-6 Dx), its "Firmware version:" line blanked
	dev := {"name": "mlx5_1", "ca_type": "MT4125", "firmware": "", "ports": [], "evidence": {"firmware": {"source": "ibstat", "path": "ibstat", "line": 14, "text": "\tFirmware version: "}}}
	fs := rule.findings with input as {"devices": [dev]}
	count(fs) == 1
	some f in fs
	f.subject == {"device": "mlx5_1"}
	startswith(f.unknown, "its running firmware version is unknown")
	f.evidence[0].line == 14
}

test_not_judged_on_missing_or_masked_firmware if {
	fs := rule.findings with input as {"devices": [
		{"name": "mlx5_0", "ca_type": "MT4125", "ports": []},
		{"name": "mlx5_1", "ca_type": "MT4125", "firmware": "xx.xx.xxxx", "ports": []},
	]}
	count(fs) == 2
	every f in fs {
		f.unknown
	}
}

test_blank_device_firmware_judged_by_the_query if {
	# the flint query of the same adapter type gives its version: judged from that, not skipped
	fs := rule.findings with input as {
		"devices": [{"name": "mlx4_0", "ca_type": "MT4099", "firmware": "", "ports": []}],
		"firmware": [{"tool": "flint", "device": "/dev/mst/mt4099_pci_cr0", "version": "2.35.5100", "psid": "MT_1170110023"}],
	}
	count(fs) == 1
	some f in fs
	not f.unknown
}

test_not_judged_on_blank_query_version if {
	fs := rule.findings with input as {"firmware": [{"tool": "flint", "device": "/dev/mst/mt4099_pci_cr0", "version": "", "psid": "MT_1170110023"}]}
	count(fs) == 1
	some f in fs
	f.unknown
}

test_no_unknown_for_a_type_without_reference if {
	count(rule.findings) == 0 with input as {"devices": [{"name": "mthca0", "ca_type": "MT25208", "firmware": "", "ports": []}]}
}
