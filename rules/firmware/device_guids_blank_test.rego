package rdmadoctor.rules.device_guids_blank_test

import data.rdmadoctor.rules.device_guids_blank as rule

# Corpus 045 (flint query full of a second-hand ConnectX-3).
blank := {
	"tool": "flint", "device": "/dev/mst/mt4099_pci_cr0", "pci_address": "0000:01:00.0",
	"version": "2.35.5100", "base_guid": "ffffffffffffffff",
	"evidence": {"base_guid": {"source": "flint_query", "path": "flint_query_full_BEFORE", "line": 10, "text": "GUIDs:                 ffffffffffffffff ffffffffffffffff ffffffffffffffff ffffffffffffffff"}},
}

test_fires_blank_guids if {
	fs := rule.findings with input as {"firmware": [blank]}
	count(fs) == 1
	some f in fs
	f.subject == {"pci": "0000:01:00.0"}
	f.evidence == [blank.evidence.base_guid]
}

test_no_finding_with_real_guids if {
	# The MFT manual's example: GUIDs: f45214030001b8a0 ...
	count(rule.findings) == 0 with input as {"firmware": [object.union(blank, {"base_guid": "f45214030001b8a0"})]}
}

test_no_finding_without_guids if {
	count(rule.findings) == 0 with input as {"firmware": [object.remove(blank, ["base_guid"])]}
}
