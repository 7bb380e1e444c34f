package rdmadoctor.lib.counters_test

import data.rdmadoctor.lib.counters

p := {"number": 1, "counters": {"symbol_error": 65535, "link_downed": 3}, "counter_deltas": {"link_downed": 2}}

test_reads_delta_with_sample if {
	r := counters.read({"name": "mlx5_0"}, p, "link_downed") with input as {"sample": {"interval_seconds": 10}}
	r.delta
	r.value == 2
}

test_reads_absolute_without_sample if {
	r := counters.read({"name": "mlx5_0"}, p, "link_downed") with input as {"sample": null}
	not r.delta
	r.value == 3
	counters.confidence(r) == "low"
}

test_saturated_reads_as_at_least if {
	r := counters.read({"name": "mlx5_0"}, p, "symbol_error") with input as {}
	counters.saturated("symbol_error", r)
	startswith(counters.describe("symbol_error", r), ">= 65535")
}

test_unknown_counter_is_undefined if {
	not counters.read({"name": "mlx5_0"}, p, "port_xmit_discards") with input as {}
}
