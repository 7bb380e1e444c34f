package rdmadoctor.rules.vm_max_map_count_low_test

import data.rdmadoctor.rules.vm_max_map_count_low as rule

test_fires_at_default if {
	inp := {"devices": [{"name": "mlx5_0"}], "host": {"sysctls": {"vm.max_map_count": "65530"}, "evidence": {"sysctls.vm.max_map_count": {"text": "vm.max_map_count = 65530"}}}}
	fs := rule.findings with input as inp
	count(fs) == 1
	some f in fs
	count(f.evidence) == 1
}

test_no_finding_when_raised if {
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0"}], "host": {"sysctls": {"vm.max_map_count": "262144"}}}
}

test_no_finding_without_rdma_devices if {
	count(rule.findings) == 0 with input as {"devices": [], "host": {"sysctls": {"vm.max_map_count": "65530"}}}
}
