# METADATA
# title: NIC hit PFC pause-storm protection
# description: >-
#   The NIC kept sending pause frames until its stall watchdog fired and stopped pausing: a
#   receiver on this host was stuck (hung process, starved CPU, PCIe back-pressure, driver bug).
#   While the storm lasted it froze the lossless priority upstream; after the watchdog, packets on
#   that priority are dropped.
# scope: package
# related_resources:
#   - ref: https://docs.kernel.org/networking/device_drivers/ethernet/mellanox/mlx5/counters.html
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/net/ethernet/mellanox/mlx5/core/en_stats.c
# custom:
#   id: pfc-pause-storm
#   area: counters
#   severity: error
#   confidence: high
#   requires: [ethtool_stats]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ethtool --get-tunable {{netdev}} pfc-prevention-tout
#       note: the stall timeout (ms); find the stalled receiver - CPU starvation, IRQ placement, PCIe bandwidth, a hung application
#     - command: dmesg -T | grep -i -e mlx5 -e pause
#       note: driver messages around the storm; enable the PFC watchdog on the switch as well
package rdmadoctor.rules.pfc_pause_storm

import data.rdmadoctor.lib.ipoib
import data.rdmadoctor.lib.module
import data.rdmadoctor.lib.stats

findings contains f if {
	some nd in input.netdevs
	not ipoib.netdev(nd)
	some level in ["error", "warning"]
	name := sprintf("tx_pause_storm_%s_events", [level])
	r := stats.netdev(nd, name)
	r.value > 0
	not storm_error(nd, level)
	f := {
		"subject": module.subject(nd),
		"message": sprintf("%s hit PFC pause-storm protection: %s", [nd.name, stats.describe(name, r)]),
		"evidence": r.evidence,
		"severity": level,
		"confidence": confidence(r),
	}
}

# one finding per netdev: the error level wins over the warning level
storm_error(nd, "warning") if stats.netdev(nd, "tx_pause_storm_error_events").value > 0

# an event counter since boot proves the storm happened, not when
confidence(r) := "high" if r.delta

else := "medium"
