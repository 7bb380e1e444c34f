package rdmadoctor.rules.perftest_completion_error_test

import data.rdmadoctor.rules.perftest_completion_error as rule

retry := {
	"kind": "completion_error", "side": "client", "status": 12, "syndrome": "0x81",
	"text": "Completion with error at client Failed status 12: wr_id 0 syndrom 0x81 scnt=128, ccnt=0",
	"evidence": {"line": 1, "text": " Completion with error at client Failed status 12: wr_id 0 syndrom 0x81 scnt=128, ccnt=0"},
}

test_fires_retry_exceeded_names_link_and_mtu if {
	fs := rule.findings with input as {"perftest": [{"program": "ib_send_bw", "errors": [retry]}], "devices": []}
	count(fs) == 1
	some f in fs
	startswith(f.message, "ib_send_bw: Completion with error at client Failed status 12: wr_id 0 syndrom 0x81 scnt=128, ccnt=0 = transport retry counter exceeded: the requests or their ACKs were lost: a physical link problem")
	contains(f.message, "a path MTU larger than a hop carries")
}

test_fires_on_the_port_the_run_used if {
	fs := rule.findings with input as {"perftest": [{"program": "ib_write_bw", "device": "mlx5_0", "port": 1, "errors": [object.union(retry, {"status": 4, "syndrome": "0x51"})]}], "devices": [{"name": "mlx5_0", "ports": [{"number": 1}]}]}
	some f in fs
	f.subject == {"device": "mlx5_0", "port": 1}
	contains(f.message, "= local protection error")
}

test_no_finding_for_a_connection_failure if {
	count(rule.findings) == 0 with input as {"perftest": [{"errors": [{"kind": "connect_failed", "text": "Couldn't connect to 192.168.125.211:18515", "evidence": {}}]}], "devices": []}
}
