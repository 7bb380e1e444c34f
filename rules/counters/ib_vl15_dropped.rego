# METADATA
# title: Management (VL15) packets dropped
# description: >-
#   The port dropped subnet-management packets. SMPs are retried by the SM, so this is usually
#   benign; steady growth points at SM sweep storms, several competing SMs or a slow MAD path.
#   It is not a data-path error.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/etc/error_thresholds
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/infiniband/core/sysfs.c
# custom:
#   id: ib-vl15-dropped
#   area: counters
#   severity: info
#   confidence: low
#   requires: [port_counters]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: sminfo -C {{device}} -P {{port}}
#       note: check which SM is master and its logs for sweep frequency and traps; resolve competing SMs
package rdmadoctor.rules.ib_vl15_dropped

import data.rdmadoctor.lib.counters

# thresholds per counter: [increase over a sampled window, absolute value since boot]
# (rdma-core error_thresholds VL15Dropped=100)
thresholds := {"VL15_dropped": [100, 100]}

findings := counters.findings(thresholds)
