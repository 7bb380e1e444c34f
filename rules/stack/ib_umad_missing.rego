# METADATA
# title: ib_umad not loaded - IB management tools and opensm cannot work
# description: >-
#   The kernel RDMA stack is loaded but ib_umad (the user-space management datagram interface,
#   /dev/infiniband/umad*) is not. Verbs traffic is unaffected, but ibstat, sminfo, perfquery,
#   ibnetdiscover, ibdiagnet and opensm all fail with "can't read ABI version ... is ib_umad module
#   loaded?", so the node can neither be diagnosed with the standard tools nor run a subnet manager.
#   On RoCE-only nodes (no SM, no LIDs) it is reported as a hint only.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/libibumad/umad.c
#   - ref: https://github.com/linux-rdma/rdma-core/tree/master/kernel-boot
# custom:
#   id: ib-umad-missing
#   area: stack
#   severity: warning
#   confidence: high
#   requires: []
#   explains: [opensm-service-problem]
#   needs_reboot: false
#   fix:
#     - command: modprobe ib_umad
#       note: then /sys/class/infiniband_mad/abi_version and /dev/infiniband/umad* exist
#     - command: echo ib_umad > /etc/modules-load.d/ib_umad.conf
#       note: persist across reboots
package rdmadoctor.rules.ib_umad_missing

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.modules

# lsmod shows the RDMA core but not ib_umad.
findings contains f if {
	some core in ["ib_core", "mlx5_ib", "mlx4_ib"]
	modules.loaded(core)
	modules.absent("ib_umad")
	f := finding.with_fields(
		finding.node(sprintf("%s is loaded but ib_umad is not: ibstat, sminfo, perfquery%s cannot open a MAD port", [core, sm_note]), modules.evidence),
		extra,
	)
}

# A diagnostic tool failed for want of the umad ABI file.
findings contains f if {
	not lsmod_proves
	msgs := [m | some m in input.host.userspace; umad_refusal(m)]
	count(msgs) > 0
	f := finding.with_fields(
		finding.node(sprintf("%s could not open the umad interface: %q", [msgs[0].tool, msgs[0].message]), [m.evidence | some m in array.slice(msgs, 0, 3)]),
		extra,
	)
}

lsmod_proves if {
	some core in ["ib_core", "mlx5_ib", "mlx4_ib"]
	modules.loaded(core)
	modules.absent("ib_umad")
}

umad_refusal(m) if {
	contains(m.message, "can't read ABI version")
	regex.match(`umad|infiniband_mad`, m.message)
}

# On the SM host, a missing ib_umad stops the subnet manager itself.
sm_host if {
	some name, svc in input.host.services
	name in {"opensm", "opensmd"}
	object.get(svc, "loaded", "") != "not-found"
}

sm_note := " and this host's opensm" if sm_host

else := ""

extra := {"severity": "error"} if sm_host

else := {"severity": "info"} if roce_only

else := {}

# RoCE-only nodes use the management tools far less (no SM, no LIDs): a hint only.
roce_only if {
	lls := {p.link_layer | some d in input.devices; some p in d.ports; object.get(p, "link_layer", "") != ""}
	lls == {"Ethernet"}
}
