# METADATA
# title: SR-IOV VF port has no physical link (PF not visible)
# description: >-
#   An InfiniBand virtual function's port is Polling, Disabled or Sleep, and no physical function
#   is in the snapshot: the node is a VM or pod, and the PF belongs to the host. A VF's physical
#   state follows the host side: Polling means the host's port gets no signal from its peer (cable,
#   module, switch port), Disabled that the host keeps this VF's link down (VF link state disable,
#   or the PF disabled). Nothing inside the VM can fix it, but it is the reason the VM has no
#   fabric: critical when it is the node's only fabric port. With the PF visible, the PF's own
#   port finding (port-physical-link-down) says it.
# scope: package
# related_resources:
#   - ref: https://github.com/Azure/azhpc-diagnostics/issues/76
#   - ref: https://docs.nvidia.com/networking/display/mlnxofedv24100700/Single+Root+IO+Virtualization+(SR-IOV)
#   - ref: https://www.kernel.org/doc/Documentation/ABI/stable/sysfs-class-infiniband
# custom:
#   id: sriov-vf-port-no-physical-link
#   area: ib
#   severity: error
#   confidence: medium
#   requires: [ib_ports]
#   explains: [sriov-vf-ib-port-not-active]
#   needs_reboot: false
#   fix:
#     - command: ibstat {{device}} {{port}}
#       note: Polling - the host's port has no signal from its peer; Disabled - the host keeps the VF's link down
#     - command: ip link show {{pf_netdev}}
#       note: on the host, the VF's link-state (auto follows the PF, disable keeps it down) and the PF's own link
#     - command: ip link set {{pf_netdev}} vf {{vf}} state auto
#       note: on the host, when the VF's link-state is disable
#     - command: mlxlink -d {{pf_pci}} -m
#       note: on the host, the PF's cable and module; in a cloud VM the host is the provider's - report the VM's host or redeploy it
#       when: {vendor: Mellanox}
package rdmadoctor.rules.sriov_vf_port_no_physical_link

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.port

findings contains f if {
	some dev in input.devices
	hca.is_vf(dev)
	not pf_visible
	some p in dev.ports
	port.ib(p)
	port.link_down(p)
	base := finding.port(
		dev, p,
		sprintf("VF %s port %d is %s / %s and no physical function is visible (VM or pod): %s%s", [dev.name, p.number, object.get(p, "state", "Down"), p.physical_state, meaning(p), only_note]),
		finding.evidence(p, ["state", "physical_state"]),
	)
	f := finding.with_fields(base, grade)
}

pf_visible if {
	some d in input.devices
	not hca.is_vf(d)
}

meaning(p) := "the host's port has no signal from its peer (cable, module, switch port)" if {
	p.physical_state == "Polling"
} else := "the host keeps this VF's link down (VF link state disable, or the PF disabled)" if {
	p.physical_state == "Disabled"
} else := "the host's port is asleep"

any_active if {
	some d in input.devices
	some q in d.ports
	port.active(q)
}

only_note := "; it is the node's only fabric port, so the node has no fabric" if not any_active

else := ""

grade := {"severity": "critical"} if not any_active

else := {}
