package rdmadoctor.rules.oem_firmware_psid_test

import data.rdmadoctor.rules.oem_firmware_psid as rule

test_fires_for_hp_psid_from_mlxfwmanager if {
	# corpus 034: HP 544+FLR, mlxfwmanager "No matching image found"
	fw := {"tool": "mlxfwmanager", "device": "/dev/mst/mt4103_pci_cr2", "pci_address": "0000:1d:00.0", "psid": "HP_1380110017", "evidence": {"psid": {"line": 9}}}
	fs := rule.findings with input as {"firmware": [fw]}
	count(fs) == 1
	some f in fs
	f.subject == {"pci": "0000:1d:00.0"}
	f.vars == {"psid": "HP_1380110017", "vendor": "HPE"}
}

test_fires_for_lenovo_board_id if {
	dev := {"name": "mlx5_0", "board_id": "LNV2180110032", "pci_address": "0000:01:00.0"}
	fw := {"tool": "flint", "pci_address": "0000:01:00.0", "psid": "LNV2180110032"}
	fs := rule.findings with input as {"devices": [dev], "firmware": [fw]}
	count(fs) == 1
	some f in fs
	f.subject.device == "mlx5_0"
	f.vars.vendor == "Lenovo"
}

test_fires_for_netdev_psid if {
	nd := {"name": "enp1s0", "firmware_psid": "DEL0000000004", "pci_address": "0000:01:00.0"}
	count(rule.findings) == 1 with input as {"netdevs": [nd]}
}

test_no_finding_for_nvidia_psids if {
	devs := [{"name": "mlx5_0", "board_id": "MT_0000000222"}, {"name": "mlx5_1", "board_id": "NVD0000000087"}]
	count(rule.findings) == 0 with input as {"devices": devs, "netdevs": [{"name": "ib0", "firmware_psid": "MT_0000000226"}]}
}
