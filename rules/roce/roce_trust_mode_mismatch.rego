# METADATA
# title: RoCE port trusts PCP but its traffic is untagged
# description: >-
#   The port classifies by VLAN PCP while RDMA runs untagged (no VLAN on the RoCE netdev), so RoCE
#   packets land in priority 0 instead of the PFC-protected priority: the lossless design silently
#   does not apply and congestion drops packets. VLAN-tagged RoCE with PCP set is a valid design.
# scope: package
# related_resources:
#   - ref: https://github.com/Mellanox/nic-configuration-operator/pull/38
#   - ref: https://github.com/Mellanox/mlnx-tools
#   - ref: https://docs.nvidia.com/doca/sdk/RDMA+over+Converged+Ethernet
# custom:
#   id: roce-trust-mode-mismatch
#   area: roce
#   severity: warning
#   confidence: medium
#   requires: [qos]
#   explains: [eth-rx-buffer-discards, roce-transport-retransmissions]
#   needs_reboot: false
#   fix:
#     - command: mlnx_qos -i {{netdev}} --trust dscp
#       note: classify by DSCP (not persistent - reapply at boot); the switch must classify by DSCP too
#       when: {vendor: Mellanox}
#     - command: dcb app show dev {{netdev}} dscp-prio
#       note: the DSCP-to-priority map through the kernel's DCB interface (iproute2 dcb-app(8)); with the drivers that implement it, entries there classify by DSCP
#     - command: cma_roce_tos -d {{device}} -p {{port}} -t 106
#       note: RDMA-CM default ToS = DSCP 26 + ECT(0), which maps to priority 3; NCCL/UCX set their own (NCCL_IB_TC=106)
package rdmadoctor.rules.roce_trust_mode_mismatch

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.roce

findings contains f if {
	some dev in input.devices
	some p in dev.ports
	roce.port(dev, p)
	nd := roce.netdev(dev, p)
	nd.qos.trust == "pcp"
	count(nd.qos.pfc_enabled) > 0
	count(roce.vlan_children(nd)) == 0
	f := finding.with_fields(
		finding.port(dev, p, sprintf("%s port %d: %s trusts PCP with PFC on priority %v, but carries no VLAN: untagged RoCE lands in priority 0%s", [dev.name, p.number, nd.name, nd.qos.pfc_enabled, traffic_note(nd)]), finding.evidence(nd, ["qos.trust", "qos.pfc_enabled"])),
		object.union({"vars": {"netdev": nd.name}}, grade(nd)),
	)
}

# traffic in priority 0 and none in the PFC priority confirms it.
confirmed(nd) if {
	nd.stats.rx_prio0_bytes > 0
	object.get(nd.stats, sprintf("rx_prio%d_bytes", [roce.pfc_priority(nd)]), 0) == 0
}

traffic_note(nd) := sprintf(" (rx_prio0_bytes %d, rx_prio%d_bytes 0)", [nd.stats.rx_prio0_bytes, roce.pfc_priority(nd)]) if {
	confirmed(nd)
} else := ""

grade(nd) := {"confidence": "high"} if confirmed(nd)

else := {}
