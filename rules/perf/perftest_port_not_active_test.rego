package rdmadoctor.rules.perftest_port_not_active_test

import data.rdmadoctor.rules.perftest_port_not_active as rule

# corpus 013: ib_write_bw in a pod whose VF port is Down
errs := [
	{"kind": "port_not_active", "port": 1, "port_state": "Down", "text": "Port number 1 state is Down", "evidence": {"line": 1, "text": " Port number 1 state is Down"}},
	{"kind": "failed", "text": "Couldn't set the link layer", "evidence": {"line": 2, "text": " Couldn't set the link layer"}},
	{"kind": "failed", "text": "Couldn't get context for the device", "evidence": {"line": 3, "text": " Couldn't get context for the device"}},
]

test_fires_on_the_node_without_a_device if {
	fs := rule.findings with input as {"perftest": [{"program": "ib_write_bw", "errors": errs}], "devices": []}
	count(fs) == 1
	some f in fs
	f.subject == {}
	f.message == "ib_write_bw did not run: Port number 1 state is Down (perftest needs the port Active)"
	count(f.evidence) == 3
}

test_fires_on_the_named_devices_port if {
	fs := rule.findings with input as {"perftest": [{"program": "ib_write_bw", "device": "mlx5_0", "errors": errs}], "devices": [{"name": "mlx5_0", "ports": [{"number": 1, "state": "Down"}]}]}
	some f in fs
	f.subject == {"device": "mlx5_0", "port": 1}
}

test_no_finding_for_other_errors if {
	count(rule.findings) == 0 with input as {"perftest": [{"errors": [errs[1], errs[2]]}], "devices": []}
}
