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
