# METADATA
# title: CPUs ran below their maximum frequency during a perftest run
# description: >-
#   perftest compares the cores' frequencies while it runs and printed "Conflicting CPU frequency
#   values detected: A != B. CPU Frequency is not max." (perftest get_clock.c): frequency scaling
#   (a power-saving governor, intel_pstate/amd-pstate powersave, deep C-states) was active, so its
#   cycle-based timing and the cores polling the completion queues ran slowed. That inflates
#   latency and can cap small-message and single-QP bandwidth. This is the run's own evidence,
#   whatever the governor files say.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/perftest
#   - ref: https://docs.kernel.org/admin-guide/pm/cpufreq.html
# custom:
#   id: perftest-cpu-frequency-not-max
#   area: host
#   severity: warning
#   confidence: medium
#   requires: [perftest]
#   explains: [perftest-latency-high, perftest-bandwidth-below-path-limit]
#   needs_reboot: false
#   fix:
#     - command: cpupower frequency-set -g performance
#       note: on both nodes, then re-run the test (tuned-adm profile network-latency to persist)
#     - command: cpupower idle-set -D 0
#       note: for latency tests, keep the cores out of deep C-states (or the BIOS C-state setting)
package rdmadoctor.rules.perftest_cpu_frequency_not_max

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.perftest

findings contains f if {
	some r in input.perftest
	ws := object.get(r, "cpu_frequency_warnings", [])
	count(ws) > 0
	msg := sprintf("%s ran with the CPU frequency below its maximum: %s", [perftest.name(r), trim_space(ws[0].text)])
	f := finding.node(msg, ws)
}
