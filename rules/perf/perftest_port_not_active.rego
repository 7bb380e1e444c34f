# METADATA
# title: perftest refused to run on a port that is not Active
# description: >-
#   perftest checks the port before it creates any QP and stops with "Port number N state is
#   Down" (or Init, Armed; perftest_parameters.c), followed by "Couldn't set the link layer" and
#   "Couldn't get context for the device": no traffic was sent, so the run says nothing about
#   bandwidth or latency. The port's own state says why: no physical link (cable, module, a port
#   disabled on purpose), no subnet manager (Initializing), the wrong protocol for the fabric, or
#   a VF whose port follows a PF that is down. Run the test on an Active port (-d, -i).
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/perftest/blob/master/src/perftest_parameters.c
# custom:
#   id: perftest-port-not-active
#   area: perf
#   severity: warning
#   confidence: high
#   requires: [perftest]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ibstat {{device}} {{port}}
#       note: the port's State and Physical state say whether the link, the subnet manager or the port's protocol is missing
#     - command: ibv_devinfo -l
#       note: pick an Active device and port for the test (perftest -d <device> -i <port>)
package rdmadoctor.rules.perftest_port_not_active

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.perftest

findings contains f if {
	some r in input.perftest
	some e in object.get(r, "errors", [])
	e.kind == "port_not_active"
	msg := sprintf("%s did not run: %s (perftest needs the port Active)", [perftest.name(r), trim_space(e.text)])
	ev := array.concat([e.evidence], [x.evidence | some x in r.errors; x.kind == "failed"])
	f := subject(r, e, msg, ev)
}

# subject: the device's port the error names, when the snapshot has the device; else the node.
subject(r, e, msg, ev) := finding.port(d, p, msg, ev) if {
	d := perftest.device(r)
	some p in d.ports
	p.number == e.port
} else := finding.node(msg, ev)
