# METADATA
# title: InfiniBand SR-IOV VF port stays down
# description: >-
#   A virtual function's InfiniBand port is Down or Initializing (often with LID 65535) although the
#   physical link is up, so the pod or VM using it has no IB connectivity. The SM only activates VFs
#   when it has virtualization enabled (opensm virt_enabled 2, or the switch/UFM SM setting) and the
#   VF has node/port GUIDs and link state auto or enable.
# scope: package
# related_resources:
#   - ref: https://github.com/Mellanox/network-operator/issues/249
#   - ref: https://github.com/openshift/sriov-network-operator/issues/635
#   - ref: https://docs.nvidia.com/networking/display/mlnxofedv24100700/Single+Root+IO+Virtualization+(SR-IOV)
# custom:
#   id: sriov-vf-ib-port-not-active
#   area: ib
#   severity: error
#   confidence: high
#   requires: [ib_ports]
#   explains: [perftest-port-not-active]
#   needs_reboot: false
#   fix:
#     - command: "echo 'virt_enabled 2' >> /etc/opensm/opensm.conf && systemctl restart opensm"
#       note: on the SM host; on a switch or UFM SM enable its virtualization support instead
#     - command: ip link set <pf-netdev> vf <n> node_guid <guid> port_guid <guid> state auto
#       note: give each VF unique GUIDs and link state auto, then rebind the VF (echo <vf pci> > /sys/bus/pci/drivers/mlx5_core/unbind, then bind)
#     - command: ibstat {{device}} {{port}}
#       note: expect State Active after the next SM sweep
package rdmadoctor.rules.sriov_vf_ib_port_not_active

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.port

findings contains f if {
	some dev in input.devices
	hca.is_vf(dev)
	some p in dev.ports
	port.ib(p)
	p.state in {"Down", "Initializing"}
	vf_link_ok(p)
	base := finding.port(
		dev, p,
		sprintf("VF %s port %d is %s / %s%s%s", [dev.name, p.number, p.state, p.physical_state, lid_note(p), pf_note]),
		array.concat(finding.evidence(p, ["state", "physical_state", "lid", "sm_lid"]), finding.evidence(dev, ["node_guid"])),
	)
	f := finding.with_fields(base, grade)
}

# The VF's own physical state mirrors the PF's: LinkUp means the cable is fine, so the SM side is
# at fault. A VF whose PF has no link at all is the PF's problem (port-physical-link-down).
vf_link_ok(p) if p.physical_state == "LinkUp"

lid_note(p) := sprintf(" with LID %d", [p.lid]) if p.lid == 65535

else := ""

pf_active if {
	some d in input.devices
	not hca.is_vf(d)
	some q in d.ports
	port.ib(q)
	port.active(q)
}

pf_note := " while a physical function on this node is Active: the SM has not activated the VF (virtualization off, missing GUIDs or VF link state)" if pf_active

else := ": the SM has not activated the VF (virtualization off, missing GUIDs or VF link state)"

# Inside a pod or VM the PF is not visible: the VF alone is less conclusive.
grade := {} if pf_active

else := {"confidence": "medium"}
