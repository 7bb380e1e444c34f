# METADATA
# title: NIC dropped received packets for lack of buffer
# description: >-
#   The adapter discarded received packets because its port buffer was full (rx_discards_phy,
#   per-priority discards) or because the host could not take them over PCIe
#   (outbound_pci_buffer_overflow): the host or the adapter cannot absorb the incoming traffic.
#   Under microbursts on lossy priorities a few are common; on a lossless (PFC) priority any
#   discard means PFC or headroom is misconfigured, and RoCE turns each loss into retransmissions.
# scope: package
# related_resources:
#   - ref: https://docs.kernel.org/networking/device_drivers/ethernet/mellanox/mlx5/counters.html
# custom:
#   id: eth-rx-buffer-discards
#   area: counters
#   severity: warning
#   confidence: medium
#   requires: [ethtool_stats]
#   explains: [roce-transport-retransmissions]
#   needs_reboot: false
#   fix:
#     - command: mlnx_qos -i {{netdev}}
#       note: on RoCE, PFC on the RoCE priority with DSCP trust keeps the NIC from dropping (see roce-pfc-not-enabled, roce-trust-mode-mismatch)
#       when: {vendor: Mellanox}
#     - command: dcb pfc show dev {{netdev}}
#       note: the same PFC settings through the kernel's DCB interface (iproute2 dcb-pfc(8)), for any driver that implements it
#     - command: ethtool -G {{netdev}} rx 8192
#       note: larger receive rings; spread the load over more channels and cores local to the NIC (ethtool -L, IRQ affinity)
#     - command: lspci -vvv -s {{pci}}
#       note: outbound_pci_buffer_overflow means the PCIe link is the bottleneck - check LnkSta against the port rate
package rdmadoctor.rules.eth_rx_buffer_discards

import data.rdmadoctor.lib.ipoib
import data.rdmadoctor.lib.module
import data.rdmadoctor.lib.stats

# limits: [any increase over a sample, more than this since boot]
limits := [0, 1000]

findings contains f if {
	some nd in input.netdevs
	not ipoib.netdev(nd)
	rs := [r |
		some n in object.keys(object.get(nd, "stats", {}))
		discard_counter(n)
		r := object.union(stats.netdev(nd, n), {"name": n})
		stats.over(r, limits)
	]
	count(rs) > 0
	sorted := sort([r.name | some r in rs])
	ordered := [r | some n in sorted; some r in rs; r.name == n]
	f := {
		"subject": module.subject(nd),
		"message": sprintf("%s%s dropped received packets for lack of buffer: %s%s", [nd.name, label(nd), concat(", ", [stats.describe(r.name, r) | some r in ordered]), lossless_note(nd, rs)]),
		"evidence": stats.unique_evidence(ordered),
		"confidence": stats.confidence(ordered[0]),
		"severity": severity(nd, rs),
	}
}

discard_counter(n) if n in {"rx_discards_phy", "outbound_pci_buffer_overflow"}

discard_counter(n) if regex.match(`^rx_prio[0-7]_(discards|buf_discard|cong_discard)$`, n)

# lossless_prios are PFC-enabled priorities that discarded.
lossless_prios(nd, rs) := {p |
	some r in rs
	m := regex.find_all_string_submatch_n(`^rx_prio([0-7])_`, r.name, 1)
	count(m) == 1
	p := to_number(m[0][1])
	p in object.get(object.get(nd, "qos", {}), "pfc_enabled", [])
}

severity(nd, rs) := "error" if {
	count(lossless_prios(nd, rs)) > 0
} else := "warning"

lossless_note(nd, rs) := sprintf(" - on PFC priority %v, which must not drop", [sort(lossless_prios(nd, rs))]) if {
	count(lossless_prios(nd, rs)) > 0
} else := ""

label(nd) := sprintf(" (%s)", [nd.capture]) if {
	object.get(nd, "capture", "") != ""
} else := ""
