# METADATA
# title: perftest latency above what the path should give
# description: >-
#   A perftest latency run (ib_write_lat, ib_read_lat, ib_send_lat) measured a typical (median)
#   latency for its smallest message (64 bytes or less) above about 2 us on a loopback run (both
#   QPs on one port: the same LID, or the same GID on RoCE) or above about 5 us between two ports
#   (across a switch). These are the operators' rule-of-thumb ceilings of rdmadoctor's seed
#   article on InfiniBand setup and tuning (§5.1: "latency should be under 2 us on local
#   loopback or 5 us across a switch"); healthy EDR/HDR and 100G RoCE paths measure about 1 us
#   (ib_write_lat typical 0.99 us on back-to-back ConnectX-5 RoCE, morrismeyer/warpforge
#   holmes-lab/mark1/mellanox-perf/CONNECTX5.md). A run whose ends are not printed is judged
#   against the 5 us ceiling. Usual causes: CPU frequency scaling or deep C-states (perftest's
#   own "Conflicting CPU frequency values" lines), the test running off the NIC's NUMA node,
#   interrupt-driven completions (-e), a congested or lossy path.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/perftest
#   - ref: https://docs.kernel.org/admin-guide/pm/cpufreq.html
# custom:
#   id: perftest-latency-high
#   area: perf
#   severity: warning
#   confidence: medium
#   requires: [perftest]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: cpupower frequency-set -g performance
#       note: then re-run; perftest warns "Conflicting CPU frequency values detected" while the cores scale
#     - command: cat /sys/class/infiniband/{{device}}/device/numa_node
#       note: run both ends pinned to the NIC's NUMA node (numactl -N <node> -m <node> ib_write_lat ...)
#     - command: ib_write_lat -d {{device}} -i {{port}} -s 2 -n 10000 <server>
#       note: re-run with more iterations; compare a loopback run on one node with a run across the switch
package rdmadoctor.rules.perftest_latency_high

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.perftest

# ceilings in microseconds (seed §5.1)
loopback_usec := 2

across_usec := 5

# max_bytes: the ceilings are for small messages (perftest's latency default is 2 bytes)
max_bytes := 64

findings contains f if {
	some r in input.perftest
	r.kind == "latency"
	row := perftest.smallest(r)
	row.bytes <= max_bytes
	lim := ceiling(r)
	row.typical_usec > lim.usec
	msg := sprintf("%s: typical latency %s us for %d-byte messages %s, above the ~%v us expected there%s", [
		perftest.name(r), perftest.fmt2(row.typical_usec), row.bytes, lim.where, lim.usec, warnings(r),
	])
	ev := array.concat([row.evidence], array.concat(finding.evidence(r, ["device", "title"]), addresses(r)))
	f := perftest.subject(r, msg, ev)
}

ceiling(r) := {"usec": loopback_usec, "where": "on a loopback run (both QPs on one port)"} if {
	perftest.loopback(r)
} else := {"usec": across_usec, "where": "between two ports"} if {
	perftest.across(r)
} else := {"usec": across_usec, "where": "(the QP ends are not in the output)"}

warnings(r) := sprintf("; perftest saw the CPU frequency below its maximum during the run (%d lines)", [n]) if {
	n := count(object.get(r, "cpu_frequency_warnings", []))
	n > 0
} else := "; to find the cause also gather: cpupower frequency-info, /proc/interrupts, the NIC's numa_node" if {
	object.get(input.host, "cpufreq_governors", null) == null
} else := ""

addresses(r) := [a.evidence | some a in [object.get(r, "local", null), object.get(r, "remote", null)]; a != null]
