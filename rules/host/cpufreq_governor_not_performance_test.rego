package rdmadoctor.rules.cpufreq_governor_not_performance_test

import data.rdmadoctor.rules.cpufreq_governor_not_performance as rule

test_fires_for_ondemand if {
	fs := rule.findings with input as {"host": {"cpufreq_governors": {"ondemand": 64}, "evidence": {"cpufreq_governors.ondemand": {"text": "ondemand"}}}}
	count(fs) == 1
	some f in fs
	f.message == "64 ondemand of 64 CPUs use a power-saving frequency governor, not performance"
	count(f.evidence) == 1
}

test_fires_low_for_powersave_only if {
	fs := rule.findings with input as {"host": {"cpufreq_governors": {"powersave": 8, "performance": 8}}}
	some f in fs
	f.confidence == "low"
}

test_no_finding_for_performance if {
	count(rule.findings) == 0 with input as {"host": {"cpufreq_governors": {"performance": 128}}}
}

test_no_finding_without_cpufreq if {
	count(rule.findings) == 0 with input as {"host": {}}
}
