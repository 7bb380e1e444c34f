package rdmadoctor.rules.perftest_cpu_frequency_not_max_test

import data.rdmadoctor.rules.perftest_cpu_frequency_not_max as rule

test_fires_on_perftests_own_warning if {
	fs := rule.findings with input as {"perftest": [{"title": "RDMA_Read Latency Test", "cpu_frequency_warnings": [
		{"line": 20, "text": "Conflicting CPU frequency values detected: 2200.000000 != 1040.353000. CPU Frequency is not max."},
		{"line": 21, "text": "Conflicting CPU frequency values detected: 2200.000000 != 1849.351000. CPU Frequency is not max."},
	]}]}
	count(fs) == 1
	some f in fs
	f.message == "RDMA_Read Latency Test ran with the CPU frequency below its maximum: Conflicting CPU frequency values detected: 2200.000000 != 1040.353000. CPU Frequency is not max."
	count(f.evidence) == 2
}

test_no_finding_without_warnings if {
	count(rule.findings) == 0 with input as {"perftest": [{"title": "RDMA_Write BW Test", "bandwidth": []}]}
}
