# METADATA
# title: Module or cable fault, or module not supported
# description: >-
#   The adapter reported a module error (the driver's "Port module event[error]": power budget
#   exceeded, bus stuck, no EEPROM, unsupported or enforced part number, high temperature, bad or
#   shorted cable), counts such events, or cannot read the EEPROM of a module on a link that is up.
#   Firmware usually keeps the port down. "Long Range for non MLNX cable" and "Enforce part number
#   list" are policy blocks: the cable may be fine electrically but is not accepted. mlxlink's
#   Status Opcode says the same from the firmware (16, 20, 24-32: cable compliance or stamping not
#   accepted; 56; 1025-1042: module management issues; rules/data/mlxlink_status.yaml).
# scope: package
# related_resources:
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/net/ethernet/mellanox/mlx5/core/events.c
#   - ref: https://docs.kernel.org/networking/device_drivers/ethernet/mellanox/mlx5/counters.html
# custom:
#   id: module-fault-or-unsupported
#   area: link
#   severity: error
#   confidence: high
#   requires:
#     - facts: [kernel_log]
#     - facts: [ethtool_stats]
#     - facts: [mlxlink]
#     - facts: [ethtool_module]
#       confidence: medium
#   explains: [port-physical-link-down, ib-link-flapping]
#   needs_reboot: false
#   fix:
#     - command: mlxlink -d {{mlxlink_device}} -m
#       note: module identifier, part number, temperature and power class; reseat or replace the module
#       when: {vendor: Mellanox}
#     - command: ethtool -m {{netdev}}
#       note: power budget exceeded - use a lower power-class module; unsupported or enforced part number - use an NVIDIA-qualified cable; high temperature - fix airflow
package rdmadoctor.rules.module_fault_or_unsupported

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.ipoib
import data.rdmadoctor.lib.mlxlink
import data.rdmadoctor.lib.module
import data.rdmadoctor.lib.stats

# dmesg: mlx5_core <bdf>: Port module event[error]: module 0, Cable error, <reason>
findings contains f if {
	some ev in input.host.kernel_events
	ev.kind == "module_error"
	addr := object.get(ev, "pci_address", "")
	f := pci_var(finding.pci(addr, devname(addr), sprintf("kernel: %s", [trim_space(ev.evidence.text)]), [ev.evidence]))
}

# dmesg: mlx4_core <bdf>: MLX4_CMD_MAD_IFC Get Module info ...: Response Mad Status(31c) - cable
# is not connected. The firmware found no module (or none it can read over I2C) in the cage when
# the driver asked for the module's EEPROM (what `ethtool -m` shows as "Input/output error"). It
# says nothing of the link itself (corpus 115): a warning, medium.
findings contains f if {
	some ev in input.host.kernel_events
	ev.kind == "cable_not_connected"
	addr := object.get(ev, "pci_address", "")
	f := pci_var(finding.with_fields(
		finding.pci(addr, devname(addr), sprintf("the firmware finds no cable or module it can read in the cage (%s): reseat the module or use a supported one; judge the link from ethtool's Link detected, not from this read", [mad_status(ev)]), array.concat([ev.evidence], eeprom_errors)),
		{"severity": "warning", "confidence": "medium"},
	))
}

mad_status(ev) := concat("", ["MAD_IFC ", m[0][1], ": cable is not connected"]) if {
	m := regex.find_all_string_submatch_n(`(Response Mad Status\([0-9a-fA-F]+\))`, ev.evidence.text, 1)
	count(m) == 1
} else := "the kernel: cable is not connected"

# eeprom_errors quotes ethtool -m read errors of the node's netdevs (not joined to the function:
# the evidence that the module cannot be read, seen from the netdev side).
eeprom_errors := [nd.module.evidence.unreadable |
	some nd in input.netdevs
	err := object.get(nd, ["module", "unreadable"], "")
	err != ""
	err != "hexdump only"
	not driver_lacks_module_ops(err)
	nd.module.evidence.unreadable
]

# ethtool -S: mlx5 module event counters (module_unplug alone is a service action, not a fault).
findings contains f if {
	some nd in input.netdevs
	has_stats(nd)
	not ipoib.netdev(nd)
	rs := [r | some n in ["module_bus_stuck", "module_high_temp", "module_bad_shorted"]; r := object.union(stats.netdev(nd, n), {"name": n}); r.value > 0]
	count(rs) > 0
	f := pci_var({
		"subject": module.subject(nd),
		"message": sprintf("%s counted module errors: %s", [nd.name, concat(", ", [stats.describe(r.name, r) | some r in rs])]),
		"evidence": stats.unique_evidence(rs),
		"confidence": confidence(rs),
	})
}

# ethtool -m: EEPROM unreadable although the link is up, so a module is plugged. A hex dump only
# is a driver fallback, not a fault, and IPoIB netdevs have no module EEPROM operations.
findings contains f if {
	some nd in input.netdevs
	err := nd.module.unreadable # first: most netdevs have no module data
	err != ""
	module.ethernet(nd)
	err != "hexdump only"
	not driver_lacks_module_ops(err)
	rdma_netdev(nd)
	module.link_up(nd)
	f := pci_var({
		"subject": module.subject(nd),
		"message": sprintf("%s: the module EEPROM cannot be read (%s) although the link is up", [nd.name, err]),
		"evidence": finding.evidence(nd.module, ["unreadable"]),
		"confidence": "medium",
	})
}

# pci_var names the finding's PCI address as the device mlxlink should read (-d accepts a BDF).
pci_var(f) := object.union(f, {"vars": {"mlxlink_device": f.subject.pci}}) if {
	object.get(f.subject, "pci", "") != ""
} else := f

# mlxlink: the firmware's troubleshooting info names a module or cable problem.
findings contains f if {
	some ml in input.mlxlink
	ml.port_type != "PCIE"
	c := mlxlink.names(ml, "module-fault-or-unsupported")
	f := mlxlink.finding_for(
		ml,
		sprintf("mlxlink on %s: %s (%s)%s", [ml.device, mlxlink.describe(ml), c.meaning, cable_note(ml)]),
		array.concat(mlxlink.status_evidence(ml), finding.evidence(ml, ["cable_pn", "cable_vendor", "cable_identifier"])),
	)
}

cable_note(ml) := sprintf("; cable %s %s", [object.get(ml, "cable_vendor", ""), ml.cable_pn]) if {
	object.get(ml, "cable_pn", "") != ""
} else := ""

# has_stats holds when nd has ethtool -S counters (stats.netdev is undefined without them): it
# spares the counter lookups on netdevs without any (VLANs).
has_stats(nd) if some _ in nd.stats

has_stats(nd) if some _ in nd.stats_deltas

# "Operation not supported" means the driver has no module EEPROM operations (virtio, many
# VMs), not that a module is faulty: only a read error (EIO, I2C) says something about the module.
driver_lacks_module_ops(err) if contains(lower(err), "not supported")

# rdma_netdev holds for netdevs of RDMA adapters: a Mellanox driver, or a port mapped to an RDMA device.
rdma_netdev(nd) if startswith(object.get(nd, "driver", ""), "mlx")

rdma_netdev(nd) if object.get(nd, "rdma_device", "") != ""

rdma_netdev(nd) if {
	addr := object.get(nd, "pci_address", "")
	addr != ""
	some d in input.devices
	d.pci_address == addr
}

confidence(rs) := "high" if stats.any_delta(rs)

else := "medium"

devname(addr) := names[0] if {
	addr != ""
	names := sort({d.name | some d in input.devices; d.pci_address == addr})
	count(names) > 0
} else := ""
