# METADATA
# title: Adapter's PCIe link trained below its capability
# description: >-
#   The NIC's PCIe link runs at fewer lanes or a lower generation than the card supports (lspci
#   LnkSta below LnkCap or marked "(downgraded)", mlxlink PCIe active below enabled, or the kernel's
#   "available PCIe bandwidth, limited by" message). Halving width or speed halves host bandwidth.
#   Usual causes: a narrower or riser slot, bifurcation, BIOS slot speed, a marginal adapter or riser.
#   From a fragment (`lspci -s X -vvv | grep LnkSta`, a loop's greps): a "(downgraded)" mark alone
#   proves it, a LnkSta without LnkCap and without the mark does not; link lines no line or file
#   name ties to a function are reported as such, at low confidence (they may be another device's).
# scope: package
# related_resources:
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/pci/pci.c
#   - ref: https://github.com/openucx/ucx/issues/5970
# custom:
#   id: pcie-link-degraded
#   area: pcie
#   severity: error
#   confidence: high
#   requires:
#     - facts: [lspci]
#     - facts: [mlxlink]
#     - facts: [kernel_log]
#   explains: [pcie-bandwidth-insufficient-for-port-rate, perftest-bandwidth-below-path-limit]
#   needs_reboot: true
#   fix:
#     - command: lspci -vvv -s {{pci}}
#       note: compare LnkCap and LnkSta; move the card to a CPU-attached x16 slot of its generation
#     - command: reboot
#       note: after reseating or changing BIOS slot speed/bifurcation settings; a cold power cycle retrains the link
package rdmadoctor.rules.pcie_link_degraded

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.join
import data.rdmadoctor.lib.pcie

# lspci: LnkSta width or speed below LnkCap (physical functions only; VFs report x0).
findings contains f if {
	some fn in input.pci
	nic(fn)
	not fn.vf == true
	why := degraded(fn)
	f := finding.with_fields(
		finding.pci(bdf(fn), devname(bdf(fn)), sprintf("PCIe link of %s %s", [label(fn), why]), finding.evidence(fn, ["lnksta", "lnkcap"])),
		grade(fn),
	)
}

# mlxlink --port_type PCIE: active speed or width below enabled.
findings contains f if {
	some ml in input.mlxlink
	ml.port_type == "PCIE"
	why := mlxlink_degraded(ml)
	addr := object.get(ml, "pci_address", "")
	f := finding.pci(addr, devname(addr), sprintf("PCIe link of %s %s (mlxlink)", [ml.device, why]), finding.evidence(ml, ["pcie_speed_active", "pcie_width_active"]))
}

# kernel: "... available PCIe bandwidth, limited by ..." is printed only below the device's capability.
findings contains f if {
	some ev in input.host.kernel_events
	ev.kind == "pcie_bandwidth_limited"
	addr := object.get(ev, "pci_address", "")
	f := finding.pci(addr, devname(addr), sprintf("kernel: %s", [trim_space(ev.evidence.text)]), [ev.evidence])
}

nic(fn) if join.mellanox(fn)

# a filtered capture (`lspci -s X -vvv | grep LnkSta`, a loop's greps) has the link lines but
# no identity: judged, at a lower confidence (anonymous)
nic(fn) if anonymous(fn)

anonymous(fn) if {
	object.get(fn, "vendor_id", "") == ""
	object.get(fn, "name", "") == ""
}

# bdf is the function's PCI address, or "" when the capture did not show one.
bdf(fn) := fn.address if {
	regex.match(`^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$`, fn.address)
} else := ""

label(fn) := bdf(fn) if {
	bdf(fn) != ""
} else := "the Mellanox adapter" if {
	not anonymous(fn)
} else := sprintf("a function no line names (%s: the capture does not say which; it may not be the adapter's)", [fn.address])

degraded(fn) := sprintf("runs x%d but the card supports x%d", [fn.lnksta.width, fn.lnkcap.width]) if {
	fn.lnksta.width > 0
	fn.lnksta.width < fn.lnkcap.width
} else := sprintf("runs %vGT/s but the card supports %vGT/s", [fn.lnksta.speed_gts, fn.lnkcap.speed_gts]) if {
	fn.lnksta.speed_gts > 0
	fn.lnksta.speed_gts < fn.lnkcap.speed_gts
} else := sprintf("is marked downgraded by lspci (x%v)", [fn.lnksta.width]) if {
	fn.lnksta.width_downgraded == true
} else := sprintf("is marked downgraded by lspci (%vGT/s)", [fn.lnksta.speed_gts]) if {
	fn.lnksta.speed_downgraded == true
}

# A speed-only downgrade can be power management on an idle link: re-sample under load. Link
# lines of a function the capture does not identify: low when not even its address is known
# (`lspci -vvv | grep LnkSta` lists every device's), medium with the address of `lspci -s`.
grade(fn) := {"confidence": "low"} if {
	anonymous(fn)
	bdf(fn) == ""
} else := {"confidence": "medium"} if {
	anonymous(fn)
} else := {} if {
	fn.lnksta.width_downgraded == true
} else := {} if {
	fn.lnksta.width < fn.lnkcap.width
} else := {"confidence": "medium"}

mlxlink_degraded(ml) := sprintf("runs %dX but is enabled for %dX", [ml.pcie_width_active, ml.pcie_width_enabled]) if {
	ml.pcie_width_active > 0
	ml.pcie_width_active < ml.pcie_width_enabled
} else := sprintf("runs %s but is enabled for %s", [ml.pcie_speed_active, ml.pcie_speed_enabled]) if {
	pcie.gen(ml.pcie_speed_active) < pcie.gen(ml.pcie_speed_enabled)
}

devname(addr) := names[0] if {
	addr != ""
	names := sort({d.name | some d in input.devices; join.pci(d) == addr})
	count(names) > 0
} else := ""
