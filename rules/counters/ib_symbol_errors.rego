# METADATA
# title: Physical-layer symbol errors on an InfiniBand link
# description: >-
#   The port counts symbol errors: bits corrupted on the wire and caught by the PHY. A few are
#   corrected, but a steady count points at a marginal cable, optic or connector that tends to get
#   worse and ends in receive errors and link retrains. HDR/NDR links always see some corrected
#   errors; a rising count between two samples is what matters.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/etc/error_thresholds
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/infiniband/core/sysfs.c
# custom:
#   id: ib-symbol-errors
#   area: counters
#   severity: warning
#   confidence: medium
#   requires:
#     - facts: [port_counters]
#     - facts: [fabric_counters]
#   explains: [ib-port-rcv-errors, ib-link-flapping, perftest-completion-error]
#   needs_reboot: false
#   fix:
#     - command: mlxlink -d {{pci}} -p {{port}} -c -e
#       note: raw and effective BER per lane; clean or reseat the optic, swap the cable - errors that follow the cable mean the cable
#       when: {vendor: Mellanox}
#     - command: perfquery -C {{device}} -P {{port}} -R
#       note: clear the counters after the repair, then sample twice (rdmadoctor gather --sample) to confirm they stay flat
package rdmadoctor.rules.ib_symbol_errors

import data.rdmadoctor.lib.counters
import data.rdmadoctor.lib.fabric

# thresholds per counter: [increase over a sampled window, absolute value since boot]
# (rdma-core infiniband-diags/etc/error_thresholds; rule-catalog §3.6)
thresholds := {"symbol_error": [0, 10]}

# this host's ports, and the fabric's ports as ibdiagnet2 read them (lib/fabric)
findings := counters.findings(thresholds) | fabric.counter_findings(thresholds)
