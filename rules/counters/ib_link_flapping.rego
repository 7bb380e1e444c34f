# METADATA
# title: InfiniBand link goes down or retrains repeatedly
# description: >-
#   The link went down (link_downed) or had to retrain (link_error_recovery). Every down event aborts
#   in-flight RC traffic after retries are exhausted, so MPI/NCCL jobs fail, and it makes the SM
#   re-sweep the fabric. Peer reboots, driver reloads and firmware resets also count, so an absolute
#   value after boot is only a hint.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/etc/error_thresholds
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/infiniband/core/sysfs.c
# custom:
#   id: ib-link-flapping
#   area: counters
#   severity: error
#   confidence: medium
#   requires:
#     - facts: [port_counters]
#     - facts: [fabric_counters]
#   explains: [ib-port-xmit-discards]
#   needs_reboot: false
#   fix:
#     - command: mlxlink -d {{pci}} -p {{port}} -m -c -e
#       note: module info, per-lane BER and the 'Troubleshooting Info' recommendation; reseat both ends, swap the cable or optic, try another switch port
#     - command: perfquery -C {{device}} -P {{port}} -R
#       note: clear the counters after the repair, then sample twice (rdmadoctor gather --sample) to confirm they stay flat
package rdmadoctor.rules.ib_link_flapping

import data.rdmadoctor.lib.counters
import data.rdmadoctor.lib.fabric
import data.rdmadoctor.lib.finding

# thresholds per counter: [increase over a sampled window, absolute value since boot]
# (rdma-core infiniband-diags/etc/error_thresholds; rule-catalog §3.6)
thresholds := {"link_downed": [0, 10], "link_error_recovery": [0, 10]}

# this host's ports, and the fabric's ports as ibdiagnet2 read them (lib/fabric)
findings := (counters.findings(thresholds) | retraining) | fabric.counter_findings(thresholds)

# A port caught retraining in the snapshot itself.
retraining contains f if {
	some dev in input.devices
	some p in dev.ports
	p.physical_state == "LinkErrorRecovery"
	f := finding.port(dev, p, sprintf("%s port %d was caught in %s: the link is retraining", [dev.name, p.number, p.physical_state]), finding.evidence(p, ["physical_state", "state"]))
}
