# METADATA
# title: Receivers run out of posted buffers (RNR / out of buffer)
# description: >-
#   Packets arrived for queues that had no receive work request posted: RC senders get RNR NAKs
#   and back off (latency spikes, RNR-retry-exceeded errors when rnr_retry < 7), while UD/RAW QPs
#   and the Ethernet receive queue silently drop. This is an application or host issue - too few
#   receives posted, a too small SRQ or ring, or CPUs that cannot keep up - not a fabric fault.
# scope: package
# related_resources:
#   - ref: https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/commit/?id=0ad17a8f7fa000cbfc51eedd7fddd20f7664e4b6
#   - ref: https://docs.kernel.org/networking/device_drivers/ethernet/mellanox/mlx5/counters.html
# custom:
#   id: rdma-receive-not-ready
#   area: counters
#   severity: warning
#   confidence: medium
#   requires: [rdma_devices]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ucx_info -c | grep RX_QUEUE_LEN
#       note: post more receives - larger SRQ/RX queue (UCX RX_QUEUE_LEN variables), rnr_retry=7 for RC
#     - command: ethtool -G {{netdev}} rx 8192
#       note: netdev rx_out_of_buffer - larger rings, and IRQs on cores local to the NIC
package rdmadoctor.rules.rdma_receive_not_ready

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.module
import data.rdmadoctor.lib.stats

# mlx5 per-port hw_counters (kernel >= 6.11 adds req_rnr_retries_exceeded).
port_counters := ["out_of_buffer", "rnr_nak_retry_err", "req_rnr_retries_exceeded"]

# mlx4 per-device diagnostic counters: RNR NAKs sent (responder) and received (requester).
device_counters := ["rq_num_rnr", "sq_num_rnr"]

# limits: [any increase over a sample, more than this since boot]
limits := [0, 1000]

findings contains f if {
	some dev in input.devices
	some p in dev.ports
	rs := [r | some n in port_counters; r := object.union(stats.port_hw(p, n), {"name": n}); stats.over(r, limits)]
	count(rs) > 0
	f := finding.with_fields(
		finding.port(dev, p, sprintf("%s port %d: %s", [dev.name, p.number, concat(", ", [stats.describe(r.name, r) | some r in rs])]), stats.unique_evidence(rs)),
		{"confidence": stats.confidence(rs[0])},
	)
}

findings contains f if {
	some dev in input.devices
	rs := [r | some n in device_counters; r := object.union(stats.device_hw(dev, n), {"name": n}); stats.over(r, limits)]
	count(rs) > 0
	f := finding.with_fields(
		finding.device(dev, sprintf("%s: %s", [dev.name, concat(", ", [stats.describe(r.name, r) | some r in rs])]), stats.unique_evidence(rs)),
		{"confidence": stats.confidence(rs[0])},
	)
}

# The netdev receive queue of an RDMA port had no buffers (rx_out_of_buffer).
findings contains f if {
	some nd in input.netdevs
	module.rdma_port(nd)
	r := stats.netdev(nd, "rx_out_of_buffer")
	stats.over(r, limits)
	f := {
		"subject": module.subject(nd),
		"message": sprintf("%s: %s - the receive queue had no buffers posted", [nd.name, stats.describe("rx_out_of_buffer", r)]),
		"evidence": r.evidence,
		"confidence": stats.confidence(r),
	}
}
