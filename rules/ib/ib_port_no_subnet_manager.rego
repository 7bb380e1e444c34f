# METADATA
# title: IB port has no subnet manager
# description: >-
#   The physical link is up but the logical state stays Initializing, so no subnet manager has
#   assigned the port a LID. Nothing (verbs, IPoIB, rdma_cm) can be sent until one does. Back-to-back
#   cabling and unmanaged switches always need a host-based opensm; on a shared fabric make sure
#   exactly one master SM exists instead of starting another.
# scope: package
# related_resources:
#   - ref: https://www.kernel.org/doc/Documentation/ABI/stable/sysfs-class-infiniband
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/ibstat.c
#   - ref: https://github.com/linux-rdma/opensm/blob/master/man/opensm.8.in
# custom:
#   id: ib-port-no-subnet-manager
#   area: ib
#   severity: critical
#   confidence: high
#   requires: [ib_ports]
#   explains: [ipoib-mode-mtu-suboptimal, ipoib-ipv6-enabled, sriov-vf-ib-port-not-active, perftest-port-not-active]
#   needs_reboot: false
#   fix:
#     - command: sminfo -C {{device}} -P {{port}}
#       note: check whether any SM answers; on a shared fabric fix that SM (switch, UFM) rather than starting a second one
#     - command: systemctl enable --now opensm
#       note: only when no SM answers and the fabric is local (back-to-back or unmanaged switch), on exactly one host
#     - command: ibstat {{device}} {{port}}
#       note: expect State Active and a Base lid once the SM has swept
package rdmadoctor.rules.ib_port_no_subnet_manager

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.port

findings contains f if {
	some dev in input.devices
	not hca.is_vf(dev)
	some p in dev.ports
	ib_like(p)
	p.physical_state == "LinkUp"
	p.state == "Initializing"
	base := finding.port(
		dev, p,
		sprintf("%s port %d is LinkUp but Initializing%s: no SM has assigned it a LID%s", [dev.name, p.number, lids(p), master_hint]),
		finding.evidence(p, ["state", "physical_state", "lid", "sm_lid"]),
	)
	f := finding.with_fields(base, extra)
}

# Some adapters (BlueField, ConnectX-7) report the logical state Down rather than Initializing
# until an SM configures the port; with SM lid 0 that is the same condition, less certain.
findings contains f if {
	some dev in input.devices
	not hca.is_vf(dev)
	some p in dev.ports
	port.ib(p)
	p.physical_state == "LinkUp"
	p.state == "Down"
	object.get(p, "sm_lid", null) in {null, 0}
	not master_answers
	base := finding.port(
		dev, p,
		sprintf("%s port %d is LinkUp but logically Down%s: no SM has configured it", [dev.name, p.number, lids(p)]),
		finding.evidence(p, ["state", "physical_state", "lid", "sm_lid"]),
	)
	f := finding.with_fields(base, {"confidence": "medium"})
}

# Initializing only exists on InfiniBand (RoCE ports are Active or Down); old ibstatus prints no
# link layer at all.
ib_like(p) if port.ib(p)

ib_like(p) if object.get(p, "link_layer", "") == ""

lids(p) := sprintf(" (Base lid %d, SM lid %d)", [p.lid, p.sm_lid]) if {
	is_number(p.lid)
	is_number(p.sm_lid)
} else := ""

# An SM that answers sminfo as master while the port stays INIT is not configuring this port
# (partition, virtualization or SM binding problem): still this rule, with less certainty.
master_answers if {
	some s in input.fabric.sminfo
	s.state == "SMINFO_MASTER"
}

master_hint := "; sminfo does see a master SM, which is not bringing this port up" if master_answers

else := ""

extra := {"confidence": "medium"} if master_answers

else := {}
