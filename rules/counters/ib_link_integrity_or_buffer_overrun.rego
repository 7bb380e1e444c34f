# METADATA
# title: InfiniBand link integrity errors or buffer overruns
# description: >-
#   LocalLinkIntegrityErrors count the times the local physical error threshold was exceeded - the
#   link is close to retraining; ExcessiveBufferOverrunErrors mean the peer sent beyond the credits
#   it was given (VL/flow-control mismatch or a broken port). Both are rare on healthy fabrics.
#   The counters are 4 bits wide and stick at 15.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/etc/error_thresholds
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/infiniband/core/sysfs.c
#   - ref: https://github.com/linux-rdma/opensm
# custom:
#   id: ib-link-integrity-or-buffer-overrun
#   area: counters
#   severity: error
#   confidence: high
#   requires: [port_counters]
#   explains: [ib-link-flapping]
#   needs_reboot: false
#   fix:
#     - command: mlxlink -d {{pci}} -p {{port}} -c -e
#       note: integrity errors - per-lane BER; replace the cable or optic
#       when: {vendor: Mellanox}
#     - command: perfquery -C {{device}} -P {{port}} -R
#       note: clear the counters after the repair and sample twice; overruns - check VL/QoS settings and firmware on both ends
package rdmadoctor.rules.ib_link_integrity_or_buffer_overrun

import data.rdmadoctor.lib.counters
import data.rdmadoctor.lib.finding

# thresholds per counter: [increase over a sampled window, absolute value since boot]
# (rdma-core error_thresholds: LocalLinkIntegrityErrors=10, ExcessiveBufferOverrunErrors=10)
thresholds := {
	"local_link_integrity_errors": [0, 10],
	"excessive_buffer_overrun_errors": [0, 10],
}

# A value since boot is a warning: it may be old.
findings := {g |
	some f in counters.findings(thresholds)
	g := grade(f)
}

grade(f) := finding.with_fields(f, {"severity": "warning"}) if {
	f.confidence == "low"
} else := f
