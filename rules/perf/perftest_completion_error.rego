# METADATA
# title: perftest stopped on a completion with error
# description: >-
#   perftest printed "Completion with error at client|server" and "Failed status N: wr_id N
#   syndrom 0xNN": a work request completed in error and the run stopped (perftest_resources.h
#   NOTIFY_COMP_ERROR_SEND/RECV). N is the work completion status (enum ibv_wc_status, names
#   from rdma-core libibverbs ibv_wc_status_str). 12, "transport retry counter exceeded", means
#   the requester never got its ACKs: packets were lost on the physical link (symbol errors, a
#   flapping or degraded link, a bad cable), the path MTU exceeds what a hop carries (RoCE netdev
#   or switch MTU below the QP's), the route or GID is wrong, or the peer went away. 13, "RNR
#   retry counter exceeded", means the receiver had no receive buffer posted. 10 and 11 are the
#   remote side refusing the operation (a memory region without that access, e.g. a server of
#   another test type); 4 a local memory registration problem (GPU or peer memory); 5, "Work
#   Request Flushed Error", follows an earlier error on the QP. The link counters and MTUs of
#   both ends tell which.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/libibverbs/enum_strs.c
#   - ref: https://github.com/linux-rdma/perftest/blob/master/src/perftest_resources.h
# custom:
#   id: perftest-completion-error
#   area: perf
#   severity: warning
#   confidence: medium
#   requires: [perftest]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: perfquery -C {{device}} -P {{port}}
#       note: SymbolErrorCounter, LinkDownedCounter, PortRcvErrors on both ends of the path (ibqueryerrors for the fabric); on RoCE ethtool -S <netdev> | grep -E 'err|discard|out_of_sequence'
#     - command: ibv_devinfo -d {{device}} | grep -E 'active_mtu|state'
#       note: both ends' active MTU; on RoCE the netdev and every switch port must carry the path MTU plus headers (ip link show <netdev>)
#     - command: ib_write_bw -d {{device}} -i {{port}} --report_gbits <server>
#       note: re-run with the same test type on both ends once the link is clean; add -R to connect through rdma_cm
package rdmadoctor.rules.perftest_completion_error

import data.rdmadoctor.lib.perftest

# meaning of the work completion statuses perftest reports (rdma-core ibv_wc_status_str), and what
# each points at.
statuses := {
	4: {"name": "local protection error", "why": "a local memory registration problem (GPU or peer memory, or the BIOS MMIO window)"},
	5: {"name": "Work Request Flushed Error", "why": "the QP was already in error: look for the first error of the run"},
	9: {"name": "remote invalid request error", "why": "the peer rejected the request (a server of another test type or message size)"},
	10: {"name": "remote access error", "why": "the peer's memory region does not allow the operation (server and client of different tests)"},
	11: {"name": "remote operation error", "why": "the peer could not complete the operation"},
	12: {"name": "transport retry counter exceeded", "why": "the requests or their ACKs were lost: a physical link problem (symbol errors, a flapping or degraded link), a path MTU larger than a hop carries, a wrong route or GID, or a peer that went away"},
	13: {"name": "RNR retry counter exceeded", "why": "the receiver had no receive buffer posted (server not ready, or too few receives)"},
}

findings contains f if {
	some r in input.perftest
	some e in object.get(r, "errors", [])
	e.kind == "completion_error"
	msg := sprintf("%s: %s%s", [perftest.name(r), trim_space(e.text), meaning(e)])
	f := perftest.subject(r, msg, [e.evidence])
}

meaning(e) := sprintf(" = %s: %s", [s.name, s.why]) if {
	s := statuses[e.status]
} else := sprintf(" (work completion status %d)", [e.status]) if {
	e.status != null
} else := ""
