package rdmadoctor.rules.fleet_link_errors_both_ends_test

import data.rdmadoctor.lib.fleet.fabric_test as t
import data.rdmadoctor.rules.fleet_link_errors_both_ends as rule

sw_errors := object.union(t.zero, {"symbol_error": 120})

test_fires_on_both_ends if {
	fs := rule.findings with input as t.doc(t.hca.views, t.switch_port(sw_errors, object.union(t.zero, {"symbol_error": 7})))
	count(fs) == 1
	some f in fs
	f.nodes == ["node01"]
	f.subject == {"node_guid": "0xfc6a1c030091f600", "node_description": "Quantum-2 Mellanox Technologies", "port": 1}
	startswith(f.message, `both ends of one cable receive errors: switch 0xfc6a1c030091f600 "Quantum-2 Mellanox Technologies" port 1 (1/1/1): symbol_error +7 during ibdiagnet's sample (120 since last clear, seen by node01); CA "node01 mlx5_3" port 1 (0x5c25730300e66b0e) (node01's mlx5_3 port 1): port_rcv_errors 6258`)
	not f.severity # rising at one end: a fault now
	f.vars.switch_guid == "0xfc6a1c030091f600"
}

test_fires_history_as_info if {
	some f in rule.findings with input as t.doc(t.hca.views, t.switch_port(sw_errors, t.zero))
	f.severity == "info"
	f.confidence == "low"
}

# corpus 301 as it is: the switch end counts no receive errors.
test_no_finding_with_one_clean_end if {
	count(rule.findings) == 0 with input as t.doc(t.hca.views, t.switch_port(t.zero, t.zero))
}

# 10 symbol errors since last clear are within rdma-core's threshold.
test_no_finding_at_the_threshold if {
	count(rule.findings) == 0 with input as t.doc(t.hca.views, t.switch_port(object.union(t.zero, {"symbol_error": 10}), t.zero))
}
