package rdmadoctor.rules.pcie_bandwidth_insufficient_for_port_rate_test

import data.rdmadoctor.rules.pcie_bandwidth_insufficient_for_port_rate as rule

hdr := {"number": 1, "state": "Active", "rate_gbps": 200, "link_layer": "InfiniBand"}

fn(sta) := {"address": "0000:3b:00.0", "vendor_id": "15b3", "lnkcap": {"speed_gts": 16, "width": 16}, "lnksta": sta}

test_fires_hdr_in_gen3_x16 if {
	fs := rule.findings with input as {
		"devices": [{"name": "mlx5_0", "ca_type": "MT4123", "pci_address": "0000:3b:00.0", "ports": [hdr]}],
		"pci": [fn({"speed_gts": 8, "width": 16})],
	}
	count(fs) == 1
	some f in fs
	f.subject == {"pci": "0000:3b:00.0", "device": "mlx5_0"}
	not f.severity
}

test_fires_error_when_far_below if {
	fs := rule.findings with input as {
		"devices": [{"name": "mlx5_0", "pci_address": "0000:3b:00.0", "ports": [hdr]}],
		"pci": [fn({"speed_gts": 8, "width": 8})],
	}
	some f in fs
	f.severity == "error"
}

test_no_finding_in_gen4_x16 if {
	count(rule.findings) == 0 with input as {
		"devices": [{"name": "mlx5_0", "pci_address": "0000:3b:00.0", "ports": [hdr]}],
		"pci": [fn({"speed_gts": 16, "width": 16})],
	}
}

test_no_finding_when_ports_down if {
	down := object.union(hdr, {"state": "Down"})
	count(rule.findings) == 0 with input as {
		"devices": [{"name": "mlx5_0", "pci_address": "0000:3b:00.0", "ports": [down]}],
		"pci": [fn({"speed_gts": 2.5, "width": 1})],
	}
}

test_fires_from_a_slot_grep_joined_by_address if {
	# `lspci -s 3b:00.0 -vvv | grep LnkSta` (no header): the function is the one mlx5_0 is joined to
	fs := rule.findings with input as {
		"devices": [{"name": "mlx5_0", "pci_address": "0000:3b:00.0", "ports": [hdr]}],
		"pci": [{"address": "0000:3b:00.0", "filter": "LnkSta", "lnksta": {"speed_gts": 8, "width": 16}}],
	}
	count(fs) == 1
}

test_no_finding_for_orphan_link_lines if {
	# a loop's greps that name no function: never joined to mlx5_0 by guess
	count(rule.findings) == 0 with input as {
		"devices": [{"name": "mlx5_0", "pci_address": "0000:3b:00.0", "ports": [hdr]}],
		"pci": [{"address": "unknown#2", "filter": "LnkCap|LnkSta", "lnksta": {"speed_gts": 8, "width": 8}}],
	}
}
