package rdmadoctor.rules.mstconfig_cannot_manage_device_test

import data.rdmadoctor.rules.mstconfig_cannot_manage_device as rule

test_fires_on_refusal_with_cx3_hint if {
	# corpus 045: mlxconfig on a ConnectX-3 with firmware 2.35
	q := {"device": "/dev/mst/mt4099_pciconf0", "pci_address": "0000:01:00.0", "device_type": "ConnectX3", "refusal": "-E- Failed to query device current configuration"}
	fs := rule.findings with input as {"nvconfig": [q]}
	count(fs) == 1
	some f in fs
	f.subject == {"pci": "0000:01:00.0"}
	contains(f.message, "mstflint 4.26")
}

test_fires_for_en_only_card_when_profile_wants_ib if {
	# corpus 102: ConnectX-6 Dx query has no LINK_TYPE_P1
	q := {"device": "61:00.0", "pci_address": "0000:61:00.0", "device_type": "ConnectX6DX", "params": {"SRIOV_EN": {"next_boot": "True(1)"}}}
	fs := rule.findings with input as {"nvconfig": [q], "profile": {"fabric": "ib"}}
	count(fs) == 1
}

test_no_finding_for_en_only_card_without_ib_intent if {
	q := {"device": "61:00.0", "pci_address": "0000:61:00.0", "device_type": "ConnectX6DX", "params": {"SRIOV_EN": {"next_boot": "True(1)"}}}
	count(rule.findings) == 0 with input as {"nvconfig": [q], "profile": null}
}

test_no_finding_for_vpi_card if {
	q := {"device": "/dev/mst/mt4115_pciconf0", "pci_address": "0000:06:00.0", "params": {"LINK_TYPE_P1": {"next_boot": "ETH(2)"}}}
	count(rule.findings) == 0 with input as {"nvconfig": [q], "profile": {"fabric": "ib"}}
}

test_no_finding_for_a_query_grepped_for_sriov if {
	# corpus 013: `mlxconfig -d /dev/mst/mt4123_pciconf5 q | grep SRIOV` holds no LINK_TYPE_P1 because of its filter
	q := {"device": "/dev/mst/mt4123_pciconf5", "pci_address": "0000:4b:00.0", "filter": "SRIOV", "params": {"NUM_OF_VFS": {"next_boot": "8"}, "SRIOV_EN": {"next_boot": "True(1)"}}}
	count(rule.findings) == 0 with input as {"nvconfig": [q], "profile": {"fabric": "ib"}}
}

test_fires_for_a_query_grepped_for_link if {
	# a grep for LINK would have shown LINK_TYPE_P1: its absence means the card has none
	q := {"device": "61:00.0", "pci_address": "0000:61:00.0", "filter": "LINK", "params": {"KEEP_ETH_LINK_UP_P1": {"next_boot": "True(1)"}}}
	count(rule.findings) == 1 with input as {"nvconfig": [q], "profile": {"fabric": "ib"}}
}
