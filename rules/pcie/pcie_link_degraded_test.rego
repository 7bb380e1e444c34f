package rdmadoctor.rules.pcie_link_degraded_test

import data.rdmadoctor.rules.pcie_link_degraded as rule

x16 := {"speed_gts": 16, "width": 16}

test_fires_width_below_cap if {
	fs := rule.findings with input as {"pci": [{
		"address": "0000:3b:00.0", "vendor_id": "15b3",
		"lnkcap": x16, "lnksta": {"speed_gts": 16, "width": 8, "width_downgraded": true},
	}]}
	count(fs) == 1
	some f in fs
	f.subject == {"pci": "0000:3b:00.0"}
	not f.confidence
}

test_fires_from_downgraded_mark_without_lnkcap if {
	# corpus 105: only "LnkSta: Speed 5GT/s (ok), Width x1 (downgraded)" was captured
	count(rule.findings) == 1 with input as {"pci": [{"name": "Mellanox Technologies MT26448 [ConnectX EN 10GigE]", "lnksta": {"speed_gts": 5, "width": 1, "width_downgraded": true}}]}
}

test_fires_from_mlxlink_pcie if {
	# corpus 007
	fs := rule.findings with input as {"mlxlink": [{
		"device": "/dev/mst/mt4123_pciconf0", "port_type": "PCIE",
		"pcie_speed_active": "2.5G-Gen 1", "pcie_speed_enabled": "16G-Gen 4",
		"pcie_width_active": 4, "pcie_width_enabled": 16,
	}]}
	count(fs) == 1
}

test_fires_from_kernel_message if {
	count(rule.findings) == 1 with input as {"host": {"kernel_events": [{"kind": "pcie_bandwidth_limited", "pci_address": "0000:04:00.0", "evidence": {"text": "mlx5_core 0000:04:00.0: 8.000 Gb/s available PCIe bandwidth, limited by 2.5 GT/s PCIe x4 link"}}]}}
}

test_no_finding_when_full_width if {
	count(rule.findings) == 0 with input as {"pci": [{"address": "0000:3b:00.0", "vendor_id": "15b3", "lnkcap": x16, "lnksta": x16}]}
}

test_no_finding_for_vf_x0 if {
	count(rule.findings) == 0 with input as {"pci": [{"address": "0000:3b:00.2", "vendor_id": "15b3", "vf": true, "lnkcap": x16, "lnksta": {"speed_gts": 16, "width": 0}}]}
}

test_no_finding_for_speed_unknown if {
	# corpus 036: old pciutils prints "Speed unknown, Width x8" for both
	count(rule.findings) == 0 with input as {"pci": [{"address": "0000:17:00.0", "vendor_id": "15b3", "lnkcap": {"speed_gts": null, "width": 8}, "lnksta": {"speed_gts": null, "width": 8}}]}
}

test_no_finding_for_gpu if {
	count(rule.findings) == 0 with input as {"pci": [{"address": "0000:17:00.0", "vendor_id": "10de", "lnkcap": x16, "lnksta": {"speed_gts": 2.5, "width": 16, "speed_downgraded": true}}]}
}

test_fires_low_for_link_lines_no_line_names if {
	# a loop's `lspci -s $bdf -vvv | grep LnkSta` (fixtures/lspci/cx7-loop-grep-lnkcap-lnksta.txt), one link downgraded:
	# the placeholder is not the adapter's address and nothing says whose link it is
	fs := rule.findings with input as {"pci": [{"address": "unknown#2", "filter": "LnkCap|LnkSta", "lnkcap": x16, "lnksta": {"speed_gts": 16, "width": 8, "width_downgraded": true}}]}
	count(fs) == 1
	some f in fs
	f.confidence == "low"
	f.subject == {}
	contains(f.message, "no line names")
}

test_fires_medium_for_a_slot_grep if {
	# `lspci -s 01:00.0 -vvv | grep Width` (corpus 007 shape): the address is known, not the device
	fs := rule.findings with input as {"pci": [{"address": "0000:01:00.0", "filter": "Width", "lnkcap": x16, "lnksta": {"speed_gts": 16, "width": 4, "width_downgraded": true}}]}
	some f in fs
	f.confidence == "medium"
	f.subject == {"pci": "0000:01:00.0"}
}

test_fires_high_for_a_vendor_grep if {
	# corpus 105: `lspci -vvv -d 15b3: | grep LnkSta` gives the vendor, and the "(downgraded)" mark proves it
	fs := rule.findings with input as {"pci": [{"address": "unknown:node03_aarch64", "vendor_id": "15b3", "filter": "LnkSta", "lnksta": {"speed_gts": 5, "width": 1, "width_downgraded": true}}]}
	some f in fs
	not f.confidence
}

test_no_finding_from_lnksta_alone if {
	# corpus 101: `lspci -vv -s 81:00.0 | grep LnkSta` on old pciutils, no LnkCap and no mark: nothing proves a downgrade
	count(rule.findings) == 0 with input as {"pci": [{"address": "0000:81:00.0", "filter": "LnkSta", "lnksta": {"speed_gts": 8, "width": 8}}]}
}
