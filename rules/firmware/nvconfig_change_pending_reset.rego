# METADATA
# title: Firmware configuration changed but not yet active
# description: >-
#   mstconfig/mlxconfig shows a next-boot value that differs from what the adapter runs now (the
#   Current column of `query -e`, or the port's running link layer for LINK_TYPE). NV configuration
#   only takes effect after a reboot or firmware reset, so the adapter still behaves the old way.
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/networking/display/mftv4341lts/using-mlxconfig
#   - ref: https://manpages.ubuntu.com/manpages/noble/en/man1/mstfwreset.1.html
# custom:
#   id: nvconfig-change-pending-reset
#   area: firmware
#   severity: warning
#   confidence: high
#   requires: [nvconfig]
#   explains: [link-type-mismatch-with-fabric, port-physical-link-down]
#   needs_reboot: true
#   fix:
#     - command: mstfwreset -d {{pci}} --level 3 -y reset
#       note: driver restart and PCI reset (MFT - mlxfwreset); where not supported, reboot
#       when: {vendor: Mellanox}
#     - command: reboot
#       note: some parameters (SR-IOV, BAR sizes) need a cold boot
package rdmadoctor.rules.nvconfig_change_pending_reset

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.join

# 1. `query -e`: Current and Next Boot columns disagree.
findings contains f if {
	some q in input.nvconfig
	some name, param in q.params
	param.current != ""
	param.next_boot != ""
	param.current != param.next_boot
	f := {
		"subject": subject(q),
		"message": sprintf("%s: %s is %s now but %s after the next boot or firmware reset", [q.device, name, param.current, param.next_boot]),
		"evidence": [param.evidence],
		"vars": {"param": name},
	}
}

# 2. Plain query: LINK_TYPE_Pn next boot differs from the port's running link layer.
findings contains f if {
	some q in input.nvconfig
	some name, param in q.params
	object.get(param, "current", "") == ""
	n := port_number(name)
	want := layer(param.next_boot)
	dev := join.nv_device(q)
	some p in dev.ports
	p.number == n
	p.link_layer != ""
	p.link_layer != want
	base := finding.port(
		dev, p,
		sprintf("%s is %s for the next boot but %s port %d still runs %s: the change is waiting for a reboot or firmware reset", [name, param.next_boot, dev.name, n, p.link_layer]),
		array.concat([param.evidence], finding.evidence(p, ["link_layer"])),
	)
	f := object.union(base, {"subject": object.union(base.subject, subject(q)), "vars": {"param": name}})
}

subject(q) := finding.compact({"pci": join.nv_pci(q)})

port_number(name) := to_number(m[0][1]) if {
	m := regex.find_all_string_submatch_n(`^LINK_TYPE_P([0-9]+)$`, name, 1)
	count(m) == 1
}

layer(v) := "InfiniBand" if {
	regex.match(`^(?i)ib\b|^1$`, v)
} else := "Ethernet" if {
	regex.match(`^(?i)eth\b|^2$`, v)
}
