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
