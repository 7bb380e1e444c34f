# METADATA
# title: Ethernet physical-layer errors
# description: >-
#   The Ethernet port receives corrupted frames: FCS (CRC) errors, symbol errors, or PCS symbol
#   errors that FEC could not correct. The frames are dropped, so RoCE retransmits and TCP backs
#   off; the usual cause is a dirty or damaged optic, fibre or DAC, or a FEC mode that does not
#   match the switch. Corrected bits alone are normal with RS-FEC on PAM4 lanes.
# scope: package
# related_resources:
#   - ref: https://docs.kernel.org/networking/device_drivers/ethernet/mellanox/mlx5/counters.html
# custom:
#   id: eth-phy-errors
#   area: counters
#   severity: warning
#   confidence: medium
#   requires: [ethtool_stats]
#   explains: [roce-transport-retransmissions, ib-link-flapping, perftest-completion-error]
#   needs_reboot: false
#   fix:
#     - command: ethtool --show-fec {{netdev}}
#       note: FEC must match the switch port (ethtool --set-fec {{netdev}} encoding rs for 25G/100G RS-FEC links)
#     - command: ethtool -m {{netdev}}
#       note: the module's per-lane power; clean or reseat the optic, swap cable ends - errors that follow the cable mean the cable
#     - command: mlxlink -d {{pci}} -c -e
#       note: per-lane BER; clean or reseat the optic, swap cable ends - errors that follow the cable mean the cable
#       when: {vendor: Mellanox}
package rdmadoctor.rules.eth_phy_errors

import data.rdmadoctor.lib.ipoib
import data.rdmadoctor.lib.module
import data.rdmadoctor.lib.stats

counters := ["rx_crc_errors_phy", "rx_symbol_err_phy", "rx_pcs_symbol_err_phy"]

# limits: [any increase over a sample, more than this since boot (link bring-up leaves a few)]
limits := [0, 10]

findings contains f if {
	some nd in input.netdevs
	not ipoib.netdev(nd)
	rs := [r | some n in counters; r := object.union(stats.netdev(nd, n), {"name": n}); stats.over(r, limits)]
	count(rs) > 0
	f := {
		"subject": module.subject(nd),
		"message": sprintf("%s%s receives corrupted frames: %s", [nd.name, label(nd), concat(", ", [stats.describe(r.name, r) | some r in rs])]),
		"evidence": stats.unique_evidence(rs),
		"confidence": stats.confidence(rs[0]),
	}
}

label(nd) := sprintf(" (%s)", [nd.capture]) if {
	object.get(nd, "capture", "") != ""
} else := ""
