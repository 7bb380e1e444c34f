package rdmadoctor.rules.pcie_acs_redirect_blocks_p2p_test

import data.rdmadoctor.rules.pcie_acs_redirect_blocks_p2p as rule

gpu := {"address": "0000:1b:00.0", "vendor_id": "10de", "class_id": "0302", "parent": "0000:19:00.0"}

nic := {"address": "0000:1c:00.0", "vendor_id": "15b3", "class_id": "0207", "parent": "0000:19:01.0"}

bridge(addr, redir) := {"address": addr, "vendor_id": "1000", "class_id": "0604", "acsctl": {"SrcValid": true, "ReqRedir": redir, "CmpltRedir": redir}, "evidence": {"acsctl": {"line": 1, "text": "ACSCtl: SrcValid+ TransBlk- ReqRedir+ CmpltRedir+"}}}

test_fires_on_switch_port_above_gpu if {
	fs := rule.findings with input as {"pci": [gpu, nic, bridge("0000:19:00.0", true), bridge("0000:19:01.0", false)]}
	count(fs) == 1
	some f in fs
	f.vars.bridge == "0000:19:00.0"
	not f.confidence
}

test_no_finding_without_gpu if {
	count(rule.findings) == 0 with input as {"pci": [nic, bridge("0000:19:00.0", true)]}
}

test_no_finding_when_redirect_off_or_elsewhere if {
	count(rule.findings) == 0 with input as {"pci": [gpu, nic, bridge("0000:19:00.0", false), object.union(bridge("0000:80:01.0", true), {"parent": "0000:80:00.0"})]}
}
