# METADATA
# title: RDMA kernel drivers not loaded
# description: >-
#   The adapter's core driver (mlx5_core / mlx4_core) or its RDMA part (mlx5_ib / mlx4_ib, ib_core,
#   ib_uverbs) is not loaded, so no RDMA device exists and every RDMA check above it is moot. Typical
#   after an out-of-tree MLNX_OFED/DOCA build that does not match the running kernel, or when
#   rdma-core (which loads mlx5_ib via udev) is not installed. Read from lsmod (whole or filtered),
#   or, without it, from a Mellanox function on PCI while the device listing tools find no RDMA
#   device ("No IB devices found", ibstatus "sys files not found"). A driver that loaded but
#   whose probe of the function failed is rdma-device-probe-failed, not this: when the kernel log
#   names such a failure, this rule says nothing about a missing core driver.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/tree/master/kernel-boot
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/libibverbs/examples/devinfo.c
# custom:
#   id: rdma-driver-modules-missing
#   area: stack
#   severity: critical
#   confidence: high
#   requires:
#     - facts: [lsmod]
#     - facts: [lspci, rdma_devices]
#       confidence: medium
#   explains: [port-physical-link-down, ib-port-no-subnet-manager, ipoib-mode-mtu-suboptimal, ipoib-ipv6-enabled]
#   needs_reboot: false
#   fix:
#     - command: modprobe -a {{modules}}
#       note: load the missing modules (-a loads each; without it the others are taken as parameters of the first); read the error and dmesg (Unknown symbol, disagrees about version of symbol) if it fails
#     - command: dkms status
#       note: an out-of-tree driver build (MLNX_OFED/DOCA-OFED, a vendor's DKMS package) must match the running kernel - rebuild it, or remove it and use the in-kernel driver with rdma-core
#     - command: dnf install rdma-core libibverbs-utils infiniband-diags
#       note: or apt install rdma-core ibverbs-providers ibverbs-utils infiniband-diags
package rdmadoctor.rules.rdma_driver_modules_missing

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.join
import data.rdmadoctor.lib.modules

# loaded counts a module listed itself or as a user of another one: a `lsmod | grep x` excerpt
# shows ib_uverbs only in ib_core's "Used by" column.
loaded := listed | {core | some m, core in depends_on; listed[m]}

listed := {m.name | some m in input.host.modules} | {u |
	some m in input.host.modules
	some u in object.get(m, "used_by", [])
}

# a module that is loaded proves its dependency is (modinfo depends:)
depends_on := {"mlx5_ib": "mlx5_core", "mlx4_ib": "mlx4_core", "mlx4_en": "mlx4_core"}

module_evidence := [e | e := input.host.evidence.modules]

# The Mellanox stack is partly there (OFED compat layer, mlxfw, an *_ib module or a Mellanox PCI
# function) but no core driver is loaded.
findings contains f if {
	is_array(input.host.modules)
	mellanox_present
	not loaded.mlx5_core
	not loaded.mlx4_core
	modules.absent("mlx5_core") # a filtered excerpt proves only what its filter covers
	modules.absent("mlx4_core")
	not probe_failed_logged
	f := finding.with_fields(
		finding.node(sprintf("no Mellanox core driver is loaded (neither mlx5_core nor mlx4_core in lsmod) although %s", [why_present]), array.concat(module_evidence, pci_evidence)),
		{"vars": {"modules": ["mlx5_core", "mlx5_ib", "ib_uverbs", "rdma_ucm"]}},
	)
}

# The core driver is there but its RDMA part is not.
findings contains f if {
	is_array(input.host.modules)
	some core, ib in {"mlx5_core": "mlx5_ib", "mlx4_core": "mlx4_ib"}
	loaded[core]
	not loaded[ib]
	modules.absent(ib)
	count(input.devices) == 0
	not probe_failed_logged
	f := finding.with_fields(
		finding.node(sprintf("%s is loaded but %s is not, and no RDMA device is listed: the adapter works as a plain NIC only", [core, ib]), module_evidence),
		{"confidence": "medium", "vars": {"modules": [ib, "ib_uverbs", "rdma_ucm"]}},
	)
}

# The full (unfiltered) lsmod has ib_core but not the verbs user interface.
findings contains f if {
	is_array(input.host.modules)
	loaded.ib_core
	not loaded.ib_uverbs
	modules.absent("ib_uverbs")
	not verbs_answered
	f := finding.with_fields(
		finding.node("ib_core is loaded but ib_uverbs is not: user-space verbs (libibverbs, perftest, MPI, NCCL) cannot open any device", module_evidence),
		{"vars": {"modules": ["ib_uverbs"]}},
	)
}

# No lsmod: a Mellanox physical function is on PCI, yet the device listing tools say the kernel
# registered no RDMA device at all.
findings contains f if {
	not is_array(input.host.modules)
	no_devices
	msgs := [m | some m in input.host.userspace; no_device_refusal(m)]
	count(msgs) > 0
	fns := sort([fn.address | some fn in input.pci; join.mellanox_pf(fn)])
	count(fns) > 0
	not probe_failed_logged
	f := finding.with_fields(
		finding.node(sprintf("no RDMA device is registered although %s on PCI (%s): its driver is not loaded, or not bound to it (%s: %q)", [pci_count(fns), concat(", ", fns), msgs[0].tool, msgs[0].message]), array.concat([msgs[0].evidence], pci_evidence)),
		{"vars": {"modules": ["mlx5_core", "mlx5_ib", "ib_uverbs", "rdma_ucm"]}},
	)
}

no_devices if not is_array(input.devices)

no_devices if count(input.devices) == 0

pci_count(fns) := "a Mellanox function is" if count(fns) == 1

else := sprintf("%d Mellanox functions are", [count(fns)])

# the listing tools' own words for "the kernel has no RDMA device"
no_device_refusal(m) if {
	m.tool in {"ibstat", "ibstatus", "ibv_devinfo", "ibv_devices"}
	regex.match(`No IB devices found|sys files not found|Failed to get IB devices list`, m.message)
}

# The kernel log names a failed probe of an RDMA adapter: rdma-device-probe-failed reports it,
# with the kernel's error, and a "driver missing" would list the same fault twice.
probe_failed_logged if {
	some ev in input.host.kernel_events
	ev.kind == "probe_failed"
	ev.driver in {"mlx5_core", "mlx4_core"}
}

mellanox_present if some_mellanox_module

mellanox_present if some_mellanox_pci

some_mellanox_module if {
	some m in loaded
	m in {"mlx_compat", "mlxfw", "mlxdevm", "mlx5_ib", "mlx4_ib", "mlx4_en"}
}

some_mellanox_pci if {
	some fn in input.pci
	fn.vendor_id == "15b3"
}

why_present := "a Mellanox PCI function is present" if some_mellanox_pci

else := sprintf("Mellanox helper modules are (%s)", [concat(", ", sort([m | some m in loaded; regex.match(`^mlx`, m)]))])

pci_evidence := [e |
	some fn in input.pci
	fn.vendor_id == "15b3"
	some e in finding.evidence(fn, ["address", "name"])
]

# ibv_devinfo/ibv_devices list devices only through ib_uverbs.
verbs_answered if {
	some src in input.sources
	src.name in {"ibv_devinfo", "ibv_devices"}
	src.status == "ok"
}
