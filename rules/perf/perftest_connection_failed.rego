# METADATA
# title: perftest client could not reach its server
# description: >-
#   perftest's client could not open the TCP connection it uses to exchange QP numbers, LIDs and
#   GIDs with the server before the test ("Couldn't connect to HOST:PORT", "Unable to init the
#   socket connection"; perftest_communication.c), so no RDMA traffic was sent and the run says
#   nothing about the RDMA path. The server was not started (or not yet listening) on that port
#   (18515 by default, -p), a firewall drops it, or the address is not the server's.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/perftest/blob/master/src/perftest_communication.c
#   - ref: https://github.com/linux-rdma/perftest/pull/228
# custom:
#   id: perftest-connection-failed
#   area: perf
#   severity: warning
#   confidence: high
#   requires: [perftest]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ib_write_bw -d {{device}} --report_gbits
#       note: start the server first on the other node (same test, same -p port), then the client with the server's address
#     - command: ss -ltnp
#       note: on the server, the test's port (18515 unless -p) must be listening; open it in the firewall on both nodes
package rdmadoctor.rules.perftest_connection_failed

import data.rdmadoctor.lib.perftest

findings contains f if {
	some r in input.perftest
	errs := [e | some e in object.get(r, "errors", []); e.kind == "connect_failed"]
	count(errs) > 0
	msg := sprintf("%s: %s: the client never reached the server, so no RDMA traffic was tested", [perftest.name(r), errs[0].text])
	f := perftest.subject(r, msg, [e.evidence | some e in errs])
}
