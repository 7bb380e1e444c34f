package rdmadoctor.rules.rdma_memlock_limit_too_low_test

import data.rdmadoctor.rules.rdma_memlock_limit_too_low as rule

# corpus 110: `ulimit -a` inside an SGE job
sge_job := {"soft_kib": 32, "unlimited": false, "evidence": {"source": "ulimit", "line": 6, "text": "max locked memory       (kbytes, -l) 32"}}

test_fires_critical_for_32k_job_limit if {
	fs := rule.findings with input as {"host": {"memlock": sge_job}}
	count(fs) == 1
	some f in fs
	f.severity == "critical"
	f.subject == {}
	contains(f.message, "32 KiB")
}

test_fires_with_pam_bypass_note if {
	rules := [{"domain": "*", "type": "-", "item": "memlock", "value_kib": null, "unlimited": true, "evidence": {"line": 3, "text": "* - memlock unlimited"}}]
	fs := rule.findings with input as {"host": {"memlock": sge_job, "memlock_rules": rules}}
	some f in fs
	contains(f.message, "pam_limits")
	count(f.evidence) == 2
}

test_fires_error_for_8_mib if {
	fs := rule.findings with input as {"host": {"memlock": {"soft_kib": 8192, "unlimited": false, "evidence": {}}}}
	some f in fs
	f.severity == "error"
}

test_fires_from_ucx_message if {
	# corpus 126: UCX quotes "current: 64 kbytes"; the kernel logs the failed QP creation
	lim := {"soft_kib": 64, "unlimited": false, "evidence": {"source": "rdma_app_log", "line": 6}}
	qp := {"kind": "other", "evidence": {"line": 1, "text": "[Wed Jan 15 11:37:57 2025] infiniband mlx5_0: create_qp:3047:(pid 29714): Create QP type 2 failed"}}
	fs := rule.findings with input as {"host": {"memlock": lim, "kernel_events": [qp]}}
	some f in fs
	contains(f.message, "quoted by the RDMA library")
	count(f.evidence) == 2
}

test_fires_from_limits_conf_without_measurement if {
	rules := [{"domain": "*", "type": "hard", "item": "memlock", "value_kib": 64, "unlimited": false, "evidence": {"line": 1}}]
	fs := rule.findings with input as {"host": {"memlock": null, "memlock_rules": rules}}
	count(fs) == 1
}

test_fires_warning_for_large_finite_limit if {
	fs := rule.findings with input as {"host": {"memlock": {"soft_kib": 16777216, "unlimited": false, "evidence": {}}}}
	some f in fs
	f.severity == "warning"
	f.confidence == "low"
}

test_no_finding_when_unlimited if {
	count(rule.findings) == 0 with input as {"host": {"memlock": {"soft_kib": null, "unlimited": true, "evidence": {}}}}
}

test_no_finding_for_small_rule_of_one_user_when_measured_unlimited if {
	rules := [{"domain": "*", "type": "soft", "item": "memlock", "value_kib": 64, "unlimited": false, "evidence": {"line": 1}}]
	count(rule.findings) == 0 with input as {"host": {"memlock": {"unlimited": true, "soft_kib": null}, "memlock_rules": rules}}
}

test_no_finding_without_memlock_facts if {
	count(rule.findings) == 0 with input as {"host": {"memlock": null}}
}
