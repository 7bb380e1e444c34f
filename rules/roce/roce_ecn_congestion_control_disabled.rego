# METADATA
# title: RoCE congestion control (DCQCN/ECN) disabled on the RoCE priority
# description: >-
#   The notification point (sending CNPs for ECN-marked packets) or the reaction point (slowing down
#   on CNPs) of DCQCN is off for the RoCE priority, or the NIC ignores CNPs it receives. Incast
#   congestion is then handled only by PFC (pause spreading, victim flows) or by loss. Upstream
#   kernels lack the ecn/ sysfs tree: its absence is not evidence of "off".
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/doca/sdk/Explicit+Congestion+Notification
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/infiniband/hw/mlx5/counters.c
# custom:
#   id: roce-ecn-congestion-control-disabled
#   area: roce
#   severity: warning
#   confidence: medium
#   requires: [rdma_devices]
#   explains: [pfc-pause-storm, ib-port-xmit-discards, roce-transport-retransmissions]
#   needs_reboot: false
#   fix:
#     - command: echo 1 > /sys/class/net/{{netdev}}/ecn/roce_np/enable/{{prio}}
#       note: MLNX_OFED/DOCA-OFED notification point; not persistent
#       when: {vendor: Mellanox}
#     - command: echo 1 > /sys/class/net/{{netdev}}/ecn/roce_rp/enable/{{prio}}
#       note: reaction point
#     - command: mstconfig -d {{pci}} set ROCE_CC_PRIO_MASK_P1=255
#       note: firmware default for any driver; needs a reboot or mstfwreset
#       when: {vendor: Mellanox}
package rdmadoctor.rules.roce_ecn_congestion_control_disabled

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.roce
import data.rdmadoctor.lib.stats

# sysfs ecn/roce_{np,rp}/enable/<prio> = 0 for the RoCE priority.
findings contains f if {
	some dev in input.devices
	some p in dev.ports
	roce.port(dev, p)
	nd := roce.netdev(dev, p)
	prio := format_int(roce.pfc_priority(nd), 10)
	off := [point | some point in ["np", "rp"]; nd.ecn[concat("_", [point, "enabled"])][prio] == false]
	count(off) > 0
	f := finding.with_fields(
		finding.port(dev, p, sprintf("%s port %d: DCQCN %s disabled on priority %s of %s", [dev.name, p.number, concat(" and ", [name(x) | some x in off]), prio, nd.name]), [e | some x in off; e := nd.evidence[sprintf("ecn.%s_enabled.%s", [x, prio])]]),
		{"vars": {"netdev": nd.name, "prio": prio}},
	)
}

# hw_counters: CNPs arrive but the reaction point ignores them.
findings contains f if {
	some dev in input.devices
	some p in dev.ports
	roce.port(dev, p)
	r := stats.port_hw(p, "rp_cnp_ignored")
	stats.over(r, [0, 0])
	f := finding.with_fields(
		finding.port(dev, p, sprintf("%s port %d: %s - CNPs received but the reaction point is not enabled", [dev.name, p.number, stats.describe("rp_cnp_ignored", r)]), r.evidence),
		{"confidence": stats.confidence(r), "vars": {"prio": "3"}},
	)
}

name("np") := "notification point"

name("rp") := "reaction point"
