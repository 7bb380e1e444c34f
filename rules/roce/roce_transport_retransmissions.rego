# METADATA
# title: RC transport is retransmitting (packet loss on a RoCE path)
# description: >-
#   The adapter's transport counters show out-of-sequence packets, sequence-error NAKs, ACK
#   timeouts or exhausted retries: packets are being lost between the peers. RoCE RC recovers with
#   go-back-N, so every loss costs a window of retransmissions and throughput collapses; when
#   retries run out the QP fails with "transport retry counter exceeded" (status 12). The loss has a
#   cause elsewhere: missing flow control, MTU mismatch, link errors, switch buffer drops.
# scope: package
# related_resources:
#   - ref: https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/commit/?id=0ad17a8f7fa000cbfc51eedd7fddd20f7664e4b6
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/infiniband/hw/mlx4/main.c
#   - ref: https://github.com/NVIDIA/nccl/issues/378
#   - ref: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html
# custom:
#   id: roce-transport-retransmissions
#   area: roce
#   severity: error
#   confidence: medium
#   requires: [hw_counters]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ethtool -S {{netdev}} | grep -E 'discard|pause|err'
#       note: find where packets are lost, in causal order - link errors, MTU mismatch, missing PFC/pause or ECN, switch drops, receivers out of buffers
#     - command: mlnx_qos -i {{netdev}}
#       note: lossless RoCE needs PFC on the RoCE priority (or global pause on older NICs, ethtool -A {{netdev}} rx on tx on) on hosts and switch
#       when: {vendor: Mellanox}
#     - command: dcb pfc show dev {{netdev}}
#       note: the PFC priorities through the kernel's DCB interface (iproute2 dcb-pfc(8)), for any driver that implements it
#     - command: rdma statistic show link {{device}}/{{port}}
#       note: sample again after the fix - the counters must stay flat under load
package rdmadoctor.rules.roce_transport_retransmissions

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.stats

# mlx5 per-port hw_counters (kernel drivers/infiniband/hw/mlx5/counters.c).
port_counters := [
	"out_of_sequence", "packet_seq_err", "implied_nak_seq_err", "local_ack_timeout_err",
	"roce_adp_retrans", "roce_adp_retrans_to", "req_transport_retries_exceeded",
]

# mlx4 per-device diagnostic counters (drivers/infiniband/hw/mlx4/main.c diag_basic/diag_ext):
# responder/requester out-of-sequence, transport retries exceeded, requester timeouts, duplicates.
device_counters := ["rq_num_oos", "sq_num_oos", "sq_num_tree", "sq_num_to", "rq_num_dup"]

# limits: [any increase over a sample, more than this since boot]
limits := [0, 1000]

findings contains f if {
	some dev in input.devices
	some p in dev.ports
	not p.link_layer == "InfiniBand"
	not object.get(p, "state", "") in {"Down", "Initializing", "Armed"}
	rs := [r | some n in port_counters; r := object.union(stats.port_hw(p, n), {"name": n}); stats.over(r, limits)]
	count(rs) > 0
	f := finding.with_fields(
		finding.port(dev, p, sprintf("%s port %d%s: %s", [dev.name, p.number, label(dev), describe(rs)]), stats.unique_evidence(rs)),
		grade(rs, p),
	)
}

findings contains f if {
	some dev in input.devices
	not ib_device(dev)
	rs := [r | some n in device_counters; r := object.union(stats.device_hw(dev, n), {"name": n}); stats.over(r, limits)]
	count(rs) > 0
	f := finding.with_fields(
		finding.device(dev, sprintf("%s%s: %s", [dev.name, label(dev), describe(rs)]), stats.unique_evidence(rs)),
		grade(rs, {}),
	)
}

ib_device(dev) if {
	some p in dev.ports
	p.link_layer == "InfiniBand"
}

label(dev) := sprintf(" (%s)", [dev.capture]) if {
	object.get(dev, "capture", "") != ""
} else := ""

describe(rs) := concat(", ", [stats.describe(r.name, r) | some r in rs])

# An increase is medium confidence (the cause is elsewhere); values since boot are low and a warning.
# An unknown link layer (no port state captured) is said in the message only.
grade(rs, _) := {"confidence": "medium"} if {
	stats.any_delta(rs)
} else := {"confidence": "low", "severity": "warning"}
