package rdmadoctor.lib.fleet.fabric_test

import data.rdmadoctor.lib.fleet.fabric

# node01 mlx5_3 port 1 of corpus 301 as ibdiagnet2.pm read it (symbol errors saturated,
# receive errors, not rising during the sample).
hca := {
	"id": "0x5c25730300e66b0e/1", "node_guid": "0x5c25730300e66b0e", "port_guid": "0x5c25730300e66b0e", "port": 1,
	"node_type": "CA", "node_description": "node01 mlx5_3", "views": [{
		"host": "node01",
		"counters": {"symbol_error": 65535, "port_rcv_errors": 6258, "local_link_integrity_errors": 0},
		"counter_deltas": {"symbol_error": 0, "port_rcv_errors": 0, "local_link_integrity_errors": 0},
		"evidence": {
			"counters.symbol_error": {"host": "node01", "source": "ibdiagnet2_pm", "path": "ibdiagnet2.pm", "line": 28015, "text": "symbol_error_counter=0x0000ffff"},
			"counters.port_rcv_errors": {"host": "node01", "source": "ibdiagnet2_pm", "path": "ibdiagnet2.pm", "line": 28017, "text": "port_rcv_errors=0x00001872"},
		},
	}],
}

test_readings_history if {
	rs := fabric.readings(hca)
	count(rs) == 2
	fabric.describe(rs) == "port_rcv_errors 6258 since last clear (seen by node01), symbol_error 65535 since last clear (seen by node01)"
	not fabric.rising(rs)
	fabric.grade(rs) == {"severity": "info", "confidence": "low"}
	[e.line | some e in fabric.evidence(rs)] == [28017, 28015]
}

test_no_clean_without_counters if {
	not fabric.clean(object.union(hca, {"views": [{"host": "node02", "evidence": {}}]}))
	not fabric.clean(hca)
}

test_name if {
	fabric.name(hca) == `CA "node01 mlx5_3" port 1 (0x5c25730300e66b0e)`
	fabric.name({"id": "0xfc6a1c030091f600/1", "node_guid": "0xfc6a1c030091f600", "port": 1, "node_type": "Switch", "node_description": "Quantum-2 Mellanox Technologies", "label": "1/1/1"}) == `switch 0xfc6a1c030091f600 "Quantum-2 Mellanox Technologies" port 1 (1/1/1)`
}

# switch 0xfc6a1c030091f600 port 1 (1/1/1), the far end of node01 mlx5_3 in corpus 301, with
# its pm heading line; counters as given.
switch_port(counters, deltas) := {
	"id": "0xfc6a1c030091f600/1", "node_guid": "0xfc6a1c030091f600", "port": 1, "node_type": "Switch",
	"node_description": "Quantum-2 Mellanox Technologies", "label": "1/1/1", "views": [{
		"host": "node01", "counters": counters, "counter_deltas": deltas, "state": "Active", "physical_state": "LinkUp",
		"evidence": {"port": {"host": "node01", "source": "ibdiagnet2_pm", "path": "ibdiagnet2.pm", "line": 13491, "text": "Port=1 Lid=0x0007 GUID=0xfc6a1c030091f600 Device=54002 Port Name=Sfc6a1c030091f600/Nfc6a1c030091f600/P1/1/1"}},
	}],
}

zero := {"symbol_error": 0, "port_rcv_errors": 0, "local_link_integrity_errors": 0}

# link is the net_dump line that ties the two.
link := {
	"a": "0x5c25730300e66b0e/1",
	"b": "0xfc6a1c030091f600/1",
	"evidence": [{"host": "node01", "source": "ibdiagnet2_net_dump", "path": "ibdiagnet2.net_dump", "line": 357, "text": "  1/1/1      : 1   : ACT  : LINK UP    : 5   : 4x      : 100     : RS_FEC_544_514      : NO-RTR : 0x5c25730300e66b0e : B66D0F0/0/0/1 : 4    : \"node01 mlx5_3\""}],
}

# host01 is node01's mlx5_3 port 1 as its ibstat read it, mapped to the fabric.
host01 := {"host": "node01", "ports": [{
	"device": "mlx5_3", "port": 1, "port_guid": "0x5c25730300e66b0e", "state": "Active", "physical_state": "LinkUp",
	"fabric_port": "0x5c25730300e66b0e/1", "peer": link.b,
}]}

# doc is a fleet document with the link, its HCA end (views as given) and its switch end.
doc(hca_views, sw) := {"fabric": {
	"ports": [object.union(hca, {"views": hca_views, "hosts": ["node01"]}), sw],
	"links": [link],
	"hosts": [host01],
}}

test_host_note_and_vars if {
	fabric.host_note(hca) == " (node01's mlx5_3 port 1)" with input as doc(hca.views, switch_port(zero, zero))
	fabric.link_vars([switch_port(zero, zero), hca]) == {"switch_guid": "0xfc6a1c030091f600", "switch_port": 1, "hca_device": "mlx5_3", "hca_port": 1} with input as doc(hca.views, switch_port(zero, zero))
}
