package rdmadoctor.rules.perftest_latency_high_test

import data.rdmadoctor.rules.perftest_latency_high as rule

# ib_read_lat over RoCE between two pods' ports (spidernet-io/spiderpool docs): typical 7.04 us
across := {
	"kind": "latency", "title": "RDMA_Read Latency Test", "device": "mlx5_0",
	"local": {"lid": 0, "gid": "00:00:00:00:00:00:00:00:00:00:255:255:172:81:00:119", "evidence": {"line": 14, "text": "local address: ..."}},
	"remote": {"lid": 0, "gid": "00:00:00:00:00:00:00:00:00:00:255:255:172:81:00:120", "evidence": {"line": 16, "text": "remote address: ..."}},
	"latency": [{"bytes": 2, "iterations": 1000, "typical_usec": 7.04, "evidence": {"line": 22, "text": " 2       1000          6.88 ..."}}],
	"cpu_frequency_warnings": [{"line": 20, "text": "Conflicting CPU frequency values detected: 2200.000000 != 1040.353000. CPU Frequency is not max."}],
	"evidence": {},
}

test_fires_above_5us_between_two_ports if {
	fs := rule.findings with input as {"perftest": [across], "devices": [], "host": {}}
	count(fs) == 1
	some f in fs
	f.subject == {}
	f.message == "RDMA_Read Latency Test: typical latency 7.04 us for 2-byte messages between two ports, above the ~5 us expected there; perftest saw the CPU frequency below its maximum during the run (1 lines)"
}

test_fires_above_2us_on_loopback if {
	loop := object.union(across, {"remote": across.local, "latency": [object.union(across.latency[0], {"typical_usec": 2.4})]})
	fs := rule.findings with input as {"perftest": [loop], "devices": [{"name": "mlx5_0", "ports": [{"number": 1}]}], "host": {}}
	some f in fs
	f.subject == {"device": "mlx5_0", "port": 1}
	contains(f.message, "on a loopback run (both QPs on one port), above the ~2 us expected there")
}

test_no_finding_for_healthy_ib_latency if {
	# ib_read_lat on mlx4_0, LID 0x01 -> 0x04: typical 1.79 us
	ib := object.union(across, {"local": {"lid": 1}, "remote": {"lid": 4}, "latency": [object.union(across.latency[0], {"typical_usec": 1.79})]})
	count(rule.findings) == 0 with input as {"perftest": [ib], "devices": [], "host": {}}
}

test_no_finding_for_large_messages if {
	big := object.union(across, {"latency": [object.union(across.latency[0], {"bytes": 65536, "typical_usec": 9.1})]})
	count(rule.findings) == 0 with input as {"perftest": [big], "devices": [], "host": {}}
}
