# METADATA
# title: SR-IOV VF has no node/port GUID assigned
# description: >-
#   A virtual function's node GUID (or, in the PF's `ip link` VF list, its NODE_GUID or PORT_GUID)
#   is all zeros: nobody set it after the VF was created. On InfiniBand the subnet manager does not
#   activate such a VF (its port stays Down or Initializing with no LID although an SM answers);
#   on RoCE, rdma_cm identifies the host by the node GUID and connection setup fails or librdmacm
#   crashes. The PF's GUIDs are not affected. The SR-IOV operator, ib-kubernetes or the ib-sriov
#   CNI normally set them; by hand it is `ip link set <pf> vf N node_guid ... port_guid ...` (IB) or
#   an admin MAC (RoCE), then an unbind/bind of the VF driver.
# scope: package
# related_resources:
#   - ref: https://github.com/openshift/sriov-network-operator/issues/941
#   - ref: https://github.com/openshift/sriov-network-operator/pull/243
#   - ref: https://github.com/openshift/sriov-network-operator/pull/237
#   - ref: https://github.com/k8snetworkplumbingwg/sriov-network-operator/issues/267
#   - ref: https://github.com/openshift/sriov-network-device-plugin/issues/20
#   - ref: https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/commit/?id=cc8e27cc97318471b7e707932d5b93b0d5f70830
# custom:
#   id: sriov-vf-guid-not-assigned
#   area: ib
#   severity: error
#   confidence: high
#   requires:
#     - facts: [rdma_devices]
#     - facts: [netdevs]
#   explains: [sriov-vf-ib-port-not-active, sriov-vf-port-no-physical-link]
#   needs_reboot: false
#   fix:
#     - command: ip link set {{pf_netdev}} vf {{vf}} node_guid {{node_guid}}
#       note: InfiniBand VF, on the host that owns the PF (its IPoIB netdev); a unique EUI-64 per VF, e.g. 00:02:c9:03:00:21:6e:70
#     - command: ip link set {{pf_netdev}} vf {{vf}} port_guid {{port_guid}}
#       note: InfiniBand VF; then rebind the VF so it takes the GUIDs (echo <vf pci> > /sys/bus/pci/drivers/mlx5_core/unbind, then .../bind)
#     - command: ip link set {{pf_netdev}} vf {{vf}} mac {{mac}}
#       note: RoCE VF - the node GUID is derived from the admin MAC at probe; then rebind the VF driver
#     - command: ibv_devinfo -d {{device}}
#       note: expect a non-zero node_guid; on InfiniBand the port goes Active after the next SM sweep
package rdmadoctor.rules.sriov_vf_guid_not_assigned

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca

# An RDMA device whose node GUID is zero (ibstat `Node GUID: 0x0000000000000000`, ibv_devinfo
# `node_guid: 0000:0000:0000:0000`, ibv_devices `0000000000000000`). A device known to be a PF
# is left out: a PF with blank GUIDs is a firmware/flash problem, not an unassigned VF.
findings contains f if {
	some dev in input.devices
	zero_guid(object.get(dev, "node_guid", ""))
	not known_pf(dev)
	base := finding.device(
		dev,
		sprintf("%s%s has node GUID %s: no GUID was assigned to it%s%s", [dev.name, what(dev), dev.node_guid, init_note(dev), effect(dev)]),
		array.concat(finding.evidence(dev, ["node_guid"]), init_evidence(dev)),
	)
	f := finding.with_fields(base, grade(dev))
}

# A VF line of the PF's `ip link` with a zero NODE_GUID or PORT_GUID (iproute2 prints them for
# InfiniBand VFs only).
findings contains f if {
	some nd in input.netdevs
	some vf in nd.vfs
	unset := unset_guids(vf)
	count(unset) > 0
	base := {
		"subject": finding.compact({"netdev": pf_name(nd)}),
		"message": sprintf("VF %d of %s has %s 00:00:00:00:00:00:00:00: no GUID was assigned, so the SM cannot activate the VF", [vf.index, pf_label(nd), concat(" and ", unset)]),
		"evidence": [vf.evidence],
	}
	f := finding.with_fields(base, {"vars": {"pf_netdev": pf_name(nd), "vf": vf.index}})
}

zero_guid(g) if regex.match(`^(0x)?[0:]+$`, g)

unset_guids(vf) := [n |
	some n in ["NODE_GUID", "PORT_GUID"]
	zero_guid(object.get(vf, lower(n), ""))
]

known_pf(dev) if dev.function == "PF"

known_pf(dev) if {
	hca.ca_type(dev)
	not hca.is_vf(dev)
}

what(dev) := " (VF)" if hca.is_vf(dev)

else := ""

# An InfiniBand port left in INIT although an SM answers: the SM does not activate a VF without GUIDs.
init_port(dev) := p if {
	some p in dev.ports
	p.link_layer == "InfiniBand"
	p.state == "Initializing"
	object.get(p, "sm_lid", 0) > 0
}

init_note(dev) := sprintf(", and port %d stays Initializing although SM lid %d answers", [p.number, p.sm_lid]) if {
	p := init_port(dev)
} else := ""

init_evidence(dev) := finding.evidence(p, ["state", "sm_lid"]) if {
	p := init_port(dev)
} else := []

effect(dev) := ": rdma_cm identifies the host by the node GUID, so RDMA CM connections fail (set the VF's admin MAC and rebind)" if {
	some p in dev.ports
	p.link_layer == "Ethernet"
} else := ": the SM does not activate a VF without GUIDs (set node_guid/port_guid on the PF and rebind the VF)" if {
	some p in dev.ports
	p.link_layer == "InfiniBand"
} else := ": set the VF's GUIDs (IB) or admin MAC (RoCE) on the PF and rebind the VF"

# A zero GUID on a device of unknown type (ibv_devices names no model) is most likely a VF, but
# could be an adapter flashed without GUIDs.
grade(dev) := {} if hca.is_vf(dev)

else := {"confidence": "medium"}

# pf_name is the PF netdev of a VF list; the builder names VF lines without their header "unknown".
pf_name(nd) := "" if nd.name in {"", "unknown"}

else := nd.name

pf_label(nd) := "the PF (its header line is not in the capture)" if pf_name(nd) == ""

else := nd.name
