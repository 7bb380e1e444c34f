# METADATA
# title: Packets received with errors on an InfiniBand port
# description: >-
#   The port drops received packets that arrived corrupted (port_rcv_errors: local physical errors,
#   malformed packets, buffer overruns) or were already marked bad upstream
#   (port_rcv_remote_physical_errors: the bad link is elsewhere in the path). Each drop costs an RC
#   retransmission or a timeout.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/etc/error_thresholds
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/infiniband/core/sysfs.c
# custom:
#   id: ib-port-rcv-errors
#   area: counters
#   severity: warning
#   confidence: medium
#   requires:
#     - facts: [port_counters]
#     - facts: [fabric_counters]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: mlxlink -d {{pci}} -p {{port}} -c -e
#       note: local errors - same physical-layer procedure as symbol errors; remote physical errors - run ibqueryerrors or ibdiagnet to find the bad upstream link
#       when: {vendor: Mellanox}
#     - command: perfquery -C {{device}} -P {{port}} -R
#       note: clear the counters after the repair, then sample twice (rdmadoctor gather --sample) to confirm they stay flat
package rdmadoctor.rules.ib_port_rcv_errors

import data.rdmadoctor.lib.counters
import data.rdmadoctor.lib.fabric

# thresholds per counter: [increase over a sampled window, absolute value since boot]
# (rdma-core infiniband-diags/etc/error_thresholds; rule-catalog §3.6)
thresholds := {"port_rcv_errors": [10, 10], "port_rcv_remote_physical_errors": [100, 100]}

# this host's ports, and the fabric's ports as ibdiagnet2 read them (lib/fabric)
findings := counters.findings(thresholds) | fabric.counter_findings(thresholds)
