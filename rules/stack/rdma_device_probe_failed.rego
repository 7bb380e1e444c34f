# METADATA
# title: Adapter on PCI, but its driver's probe failed
# description: >-
#   The kernel found the adapter and loaded its driver, but the driver gave up initialising the
#   function ("mlx5_core: probe of 0000:03:00.0 failed with error -22", "mlx5_load_one failed
#   with error code -22", "handle_hca_cap failed"), so the function has no netdev and no RDMA
#   device and every check above it is moot. This is not a missing driver: reinstalling or
#   loading modules does not help. The usual causes are a driver too old or too new for the
#   firmware (a capability the firmware refuses, error -22), a firmware that did not come out of
#   reset (command timeouts, error -110 or -5), or not enough MSI-X vectors or memory (-12, -28).
#   The kernel's own error is quoted; a function that registered a device after all (a later
#   probe, a driver reload) is not reported.
# scope: package
# related_resources:
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/net/ethernet/mellanox/mlx5/core/main.c
#   - ref: https://github.com/PeterSuh-Q3/tinycore-redpill/issues/9
#   - ref: https://docs.kernel.org/PCI/pci.html
# custom:
#   id: rdma-device-probe-failed
#   area: stack
#   severity: critical
#   confidence: high
#   requires: [kernel_log]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: dmesg -T | grep -e {{pci}} -e {{driver}}
#       note: read the driver's lines before the failure - the step that failed (handle_hca_cap, a firmware command, the command interface) names the cause
#     - command: mstflint -d {{pci}} query
#       note: firmware version and PSID; a driver that rejects the firmware's capabilities (error -22) needs a firmware update, or a kernel/driver release that supports this firmware
#       when: {vendor: Mellanox}
#     - command: devlink dev info pci/{{pci}}
#       note: the running and stored firmware versions, for drivers that report them (mlx5_core, ice, bnxt_en, per the kernel's devlink-info documentation), once the driver has bound
#     - command: lspci -k -s {{pci}}
#       note: after the fix (driver reload or reboot) "Kernel driver in use" appears and the RDMA device is listed by ibv_devices
package rdmadoctor.rules.rdma_device_probe_failed

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.join

# the drivers of RDMA adapters whose probe failures the kernel log names
drivers := {"mlx5_core", "mlx4_core"}

findings contains f if {
	some addr in failed
	not registered(addr)
	evs := [ev | some ev in input.host.kernel_events; ev.kind == "probe_failed"; ev.pci_address == addr]
	last := evs[count(evs) - 1]
	drv := [ev.driver | some ev in evs; ev.driver in drivers][0]
	f := finding.with_fields(
		finding.pci(addr, "", sprintf("%s could not initialise %s, so it has no netdev or RDMA device: %q", [drv, addr, last.evidence.text]), [ev.evidence | some ev in evs]),
		{"vars": {"driver": drv}},
	)
}

failed contains ev.pci_address if {
	some ev in input.host.kernel_events
	ev.kind == "probe_failed"
	ev.driver in drivers
	ev.pci_address != ""
}

# An RDMA device or netdev on the function proves a later probe succeeded.
registered(addr) if {
	some dev in input.devices
	join.pci(dev) == addr
}

registered(addr) if {
	some nd in input.netdevs
	nd.pci_address == addr
}
