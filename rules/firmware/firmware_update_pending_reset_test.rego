package rdmadoctor.rules.firmware_update_pending_reset_test

import data.rdmadoctor.rules.firmware_update_pending_reset as rule

# Corpus 045 after the burn, before the reboot (flint query full).
burned := {
	"tool": "flint", "device": "/dev/mst/mt4099_pci_cr0", "pci_address": "0000:01:00.0",
	"version": "2.35.5100", "pending_version": "2.42.5000",
	"evidence": {
		"pending_version": {"source": "flint_query", "path": "flint_query_full_AFTER_BURN", "line": 2, "text": "FW Version:            2.42.5000"},
		"version": {"source": "flint_query", "path": "flint_query_full_AFTER_BURN", "line": 3, "text": "FW Version(Running):   2.35.5100"},
	},
}

test_fires_burned_not_running if {
	fs := rule.findings with input as {"firmware": [burned]}
	count(fs) == 1
	some f in fs
	f.subject == {"pci": "0000:01:00.0"}
	contains(f.message, "2.42.5000 burned on flash but still runs 2.35.5100")
	count(f.evidence) == 2
}

test_fires_pci_from_mst_status if {
	fw := object.remove(burned, ["pci_address"])
	fs := rule.findings with input as {"firmware": [fw], "mst_devices": [{"path": "/dev/mst/mt4099_pci_cr0", "pci_address": "0000:01:00.0"}]}
	some f in fs
	f.subject == {"pci": "0000:01:00.0"}
}

test_no_finding_before_the_burn if {
	# The query before the burn prints only FW Version: nothing is pending.
	count(rule.findings) == 0 with input as {"firmware": [object.remove(burned, ["pending_version"])]}
}

test_no_finding_when_running_the_burned_image if {
	count(rule.findings) == 0 with input as {"firmware": [object.union(burned, {"pending_version": "2.35.5100"})]}
}

# the same query with its running version blanked: the reset cannot be judged, never passed
test_not_judged_without_running_version if {
	fs := rule.findings with input as {"firmware": [object.union(burned, {"version": ""})]}
	count(fs) == 1
	some f in fs
	startswith(f.unknown, "2.42.5000 burned on flash is not compared: its running firmware version is unknown")
}
