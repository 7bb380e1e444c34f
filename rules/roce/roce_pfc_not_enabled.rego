# METADATA
# title: RoCE port without a lossless priority (PFC off)
# description: >-
#   No priority of the RoCE netdev has PFC enabled, so on a lossless-RoCE design congestion drops
#   packets and RC traffic falls back to go-back-N retransmission; throughput collapses under
#   incast. Global 802.3x pause, where on, stalls all traffic classes instead of the RoCE one.
#   NVIDIA also supports lossy RoCE (ECN/DCQCN only, PFC off) by design: then this is expected.
# scope: package
# related_resources:
#   - ref: https://github.com/Mellanox/mlnx-tools
#   - ref: https://docs.nvidia.com/doca/sdk/RDMA+over+Converged+Ethernet
#   - ref: https://docs.kernel.org/networking/device_drivers/ethernet/mellanox/mlx5/counters.html
#   - ref: https://github.com/NVIDIA/nccl/issues/378
# custom:
#   id: roce-pfc-not-enabled
#   area: roce
#   severity: warning
#   confidence: medium
#   requires: [rdma_devices]
#   explains: [eth-rx-buffer-discards, roce-transport-retransmissions]
#   needs_reboot: false
#   fix:
#     - command: mlnx_qos -i {{netdev}} --pfc 0,0,0,1,0,0,0,0
#       note: PFC on priority 3 (not persistent - apply at boot, or let the switch push it with DCBX); the switch ports must match
#       when: {vendor: Mellanox}
#     - command: mlnx_qos -i {{netdev}} --trust dscp
#       note: classify untagged RoCE by DSCP so it lands on the PFC priority
#       when: {vendor: Mellanox}
#     - command: dcb pfc set dev {{netdev}} prio-pfc 3:on
#       note: the same through the kernel's DCB interface (iproute2 dcb-pfc(8)), for any driver that implements it; the switch ports must match
#     - command: ethtool -A {{netdev}} rx off tx off
#       note: disable global pause once PFC is on
package rdmadoctor.rules.roce_pfc_not_enabled

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.roce
import data.rdmadoctor.lib.stats

# mlnx_qos: every priority's "enabled" column is 0.
findings contains f if {
	some dev in input.devices
	some p in dev.ports
	roce.port(dev, p)
	nd := roce.netdev(dev, p)
	nd.qos.pfc_enabled == []
	f := finding.with_fields(
		finding.port(dev, p, sprintf("%s port %d: PFC is enabled on no priority of %s%s", [dev.name, p.number, nd.name, pause_note(nd)]), array.concat(finding.evidence(nd, ["qos.pfc_enabled"]), finding.evidence(nd, ["pause"]))),
		{"vars": {"netdev": nd.name}},
	)
}

# No mlnx_qos: ethtool -S shows global pause frames but no per-priority pause anywhere, i.e. the
# link runs 802.3x flow control, not PFC (mlx5 counts rx/tx_prio<p>_pause only for PFC priorities).
findings contains f if {
	some dev in input.devices
	some p in dev.ports
	roce.port(dev, p)
	nd := roce.netdev(dev, p)
	object.get(nd, "qos", null) == null
	global := [r | some n in ["tx_pause_ctrl_phy", "rx_pause_ctrl_phy", "tx_global_pause", "rx_global_pause"]; r := stats.netdev(nd, n); r.value > 0]
	count(global) > 0
	count([v | some k, v in nd.stats; regex.match(`^[rt]x_prio[0-7]_pause$`, k); v > 0]) == 0
	f := finding.with_fields(
		finding.port(dev, p, sprintf("%s port %d: %s sends or receives global pause frames but no per-priority (PFC) pause", [dev.name, p.number, nd.name]), stats.unique_evidence(global)),
		{"vars": {"netdev": nd.name}, "confidence": "low"},
	)
}

pause_note(nd) := " and global pause is on" if {
	nd.pause.rx == true
	nd.pause.tx == true
} else := ""
