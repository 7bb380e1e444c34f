package rdmadoctor.rules.perftest_connection_failed_test

import data.rdmadoctor.rules.perftest_connection_failed as rule

conn := [
	{"kind": "connect_failed", "text": "Couldn't connect to 192.168.125.211:18515", "evidence": {"line": 2, "text": "Couldn't connect to 192.168.125.211:18515"}},
	{"kind": "connect_failed", "text": "Unable to open file descriptor for socket connection Unable to init the socket connection", "evidence": {"line": 3, "text": "..."}},
]

test_fires_when_the_client_never_reached_the_server if {
	fs := rule.findings with input as {"perftest": [{"program": "ib_write_bw", "errors": conn}], "devices": []}
	count(fs) == 1
	some f in fs
	f.message == "ib_write_bw: Couldn't connect to 192.168.125.211:18515: the client never reached the server, so no RDMA traffic was tested"
	count(f.evidence) == 2
}

test_no_finding_for_a_completion_error if {
	count(rule.findings) == 0 with input as {"perftest": [{"errors": [{"kind": "completion_error", "status": 12, "text": "x", "evidence": {}}]}], "devices": []}
}
