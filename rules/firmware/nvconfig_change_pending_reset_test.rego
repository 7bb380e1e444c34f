package rdmadoctor.rules.nvconfig_change_pending_reset_test

import data.rdmadoctor.rules.nvconfig_change_pending_reset as rule

ev := {"source": "mstconfig_query", "path": "mstconfig_-d_0000_81_00.0_-e_q", "line": 14, "text": "         LINK_TYPE_P1        IB(1)        IB(1)        ETH(2)"}

test_fires_current_differs_from_next_boot if {
	fs := rule.findings with input as {"nvconfig": [{"device": "0000:81:00.0", "pci_address": "0000:81:00.0", "params": {
		"LINK_TYPE_P1": {"default": "IB(1)", "current": "IB(1)", "next_boot": "ETH(2)", "evidence": ev},
		"SRIOV_EN": {"default": "False(0)", "current": "False(0)", "next_boot": "False(0)"},
	}}]}
	count(fs) == 1
	some f in fs
	f.subject == {"pci": "0000:81:00.0"}
	f.evidence == [ev]
}

test_fires_next_boot_differs_from_link_layer if {
	fs := rule.findings with input as {
		"devices": [{"name": "mlx5_0", "pci_address": "0000:81:00.0", "ports": [{"number": 1, "link_layer": "InfiniBand"}]}],
		"nvconfig": [{"device": "81:00.0", "pci_address": "0000:81:00.0", "params": {"LINK_TYPE_P1": {"next_boot": "ETH(2)", "evidence": ev}}}],
	}
	some f in fs
	f.subject == {"device": "mlx5_0", "port": 1, "pci": "0000:81:00.0"}
}

test_no_finding_when_next_boot_matches_running if {
	count(rule.findings) == 0 with input as {
		"devices": [{"name": "mlx5_0", "pci_address": "0000:81:00.0", "ports": [{"number": 1, "link_layer": "Ethernet"}]}],
		"nvconfig": [{"device": "81:00.0", "pci_address": "0000:81:00.0", "params": {"LINK_TYPE_P1": {"next_boot": "ETH(2)"}}}],
	}
}

test_no_finding_from_next_boot_alone if {
	# Next Boot is the stored value, not proof of a pending change (catalog 4.31 trap)
	count(rule.findings) == 0 with input as {"nvconfig": [{"device": "81:00.0", "params": {"LINK_TYPE_P1": {"next_boot": "ETH(2)"}}}]}
}
