# METADATA
# title: Outbound packets discarded on an InfiniBand port
# description: >-
#   The port discarded packets it should have sent, because the link was down or the packets
#   waited too long for credits (head-of-queue lifetime): congestion, a down or slow peer, or a
#   flapping link. Discards during a peer's reboot are expected.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/etc/error_thresholds
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/infiniband/core/sysfs.c
# custom:
#   id: ib-port-xmit-discards
#   area: counters
#   severity: warning
#   confidence: medium
#   requires:
#     - facts: [port_counters]
#     - facts: [fabric_counters]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: iblinkinfo
#       note: check the peer switch port and links for flaps; look for congestion (port_xmit_wait) and slow receivers
#     - command: perfquery -C {{device}} -P {{port}} -R
#       note: clear the counters after the repair, then sample twice (rdmadoctor gather --sample) to confirm they stay flat
package rdmadoctor.rules.ib_port_xmit_discards

import data.rdmadoctor.lib.counters
import data.rdmadoctor.lib.fabric

# thresholds per counter: [increase over a sampled window, absolute value since boot]
# (rdma-core infiniband-diags/etc/error_thresholds; rule-catalog §3.6)
thresholds := {"port_xmit_discards": [100, 100]}

# this host's ports, and the fabric's ports as ibdiagnet2 read them (lib/fabric)
findings := counters.findings(thresholds) | fabric.counter_findings(thresholds)
