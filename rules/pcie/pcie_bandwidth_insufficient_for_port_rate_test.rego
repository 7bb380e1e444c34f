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
