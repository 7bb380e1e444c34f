# METADATA
# title: CPU frequency governor is not performance
# description: >-
#   Some CPUs run a power-saving frequency governor (powersave, ondemand, conservative, schedutil).
#   Clock ramp-up and deep idle add microseconds of latency to every interrupt and poll loop, which
#   shows in small-message RDMA latency and IPoIB throughput; NVIDIA's mlnx_tune low-latency and
#   high-throughput profiles set the performance governor. With intel_pstate in active mode
#   "powersave" is dynamic (HWP) and costs less, hence the lower confidence for it.
# scope: package
# related_resources:
#   - ref: https://docs.kernel.org/admin-guide/pm/cpufreq.html
#   - ref: https://docs.kernel.org/admin-guide/pm/intel_pstate.html
#   - ref: https://github.com/Mellanox/mlnx-tools
# custom:
#   id: cpufreq-governor-not-performance
#   area: host
#   severity: info
#   confidence: medium
#   requires: [cpufreq]
#   explains: [perftest-bandwidth-below-path-limit, perftest-latency-high]
#   needs_reboot: false
#   fix:
#     - command: cpupower frequency-set -g performance
#       note: takes effect at once; a site power policy may require powersave - then accept the latency
#     - command: tuned-adm profile network-latency
#       note: persist it
#     - command: mlnx_tune -p HIGH_THROUGHPUT
#       note: on MLNX_OFED hosts, instead (or LOW_LATENCY_VMA)
#       when: {vendor: Mellanox}
package rdmadoctor.rules.cpufreq_governor_not_performance

import data.rdmadoctor.lib.finding

saving := {"powersave", "ondemand", "conservative", "schedutil"}

findings contains f if {
	govs := {g: n | some g, n in input.host.cpufreq_governors; g in saving; n > 0}
	count(govs) > 0
	total := sum([n | some _, n in input.host.cpufreq_governors])
	parts := [sprintf("%d %s", [govs[g], g]) | some g in sort(object.keys(govs))]
	base := finding.node(
		sprintf("%s of %d CPUs use a power-saving frequency governor, not performance", [concat(", ", parts), total]),
		[e | some g in sort(object.keys(govs)); e := input.host.evidence[concat(".", ["cpufreq_governors", g])]],
	)
	f := finding.with_fields(base, extra(govs))
}

# only intel_pstate's dynamic powersave: smaller effect
extra(govs) := {"confidence": "low"} if object.keys(govs) == {"powersave"}

else := {}
