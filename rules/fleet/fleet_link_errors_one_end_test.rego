package rdmadoctor.rules.fleet_link_errors_one_end_test

import data.rdmadoctor.lib.fleet.fabric_test as t
import data.rdmadoctor.rules.fleet_link_errors_one_end as rule

# corpus 301 as ibdiagnet2 read it: node01 mlx5_3 receives errors (history), its switch port none.
test_fires_on_the_hca_end if {
	fs := rule.findings with input as t.doc(t.hca.views, t.switch_port(t.zero, t.zero))
	count(fs) == 1
	some f in fs
	f.nodes == ["node01"]
	f.subject == {"device": "mlx5_3", "port": 1}
	f.message == `CA "node01 mlx5_3" port 1 (0x5c25730300e66b0e) (node01's mlx5_3 port 1) receives errors (port_rcv_errors 6258 since last clear (seen by node01), symbol_error 65535 since last clear (seen by node01)) while switch 0xfc6a1c030091f600 "Quantum-2 Mellanox Technologies" port 1 (1/1/1) at the other end of its cable counts none: the receive path into CA "node01 mlx5_3" port 1 (0x5c25730300e66b0e) - its port or module, or the far end's transmitter`
	f.severity == "info"
	[e.line | some e in f.evidence] == [28017, 28015, 13491, 357]
	f.vars == {"switch_guid": "0xfc6a1c030091f600", "switch_port": 1, "hca_device": "mlx5_3", "hca_port": 1}
}

rising := [object.union(t.hca.views[0], {"counter_deltas": {"symbol_error": 40, "port_rcv_errors": 0, "local_link_integrity_errors": 0}})]

test_fires_rising_at_the_rule_severity if {
	some f in rule.findings with input as t.doc(rising, t.switch_port(t.zero, t.zero))
	not f.severity
	contains(f.message, "symbol_error +40 during ibdiagnet's sample (65535 since last clear, seen by node01)")
}

# the switch end's counters were not read (net_dump only): unknown, not clean.
test_no_finding_without_the_far_ends_counters if {
	sw := object.union(t.switch_port(t.zero, t.zero), {"views": [{"host": "node02", "state": "Active", "evidence": {}}]})
	count(rule.findings) == 0 with input as t.doc(t.hca.views, sw)
}

# errors at both ends are the other rule's.
test_no_finding_with_errors_at_both_ends if {
	count(rule.findings) == 0 with input as t.doc(t.hca.views, t.switch_port(object.union(t.zero, {"symbol_error": 120}), t.zero))
}
