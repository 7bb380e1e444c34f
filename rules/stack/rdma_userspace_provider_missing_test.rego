package rdmadoctor.rules.rdma_userspace_provider_missing_test

import data.rdmadoctor.rules.rdma_userspace_provider_missing as rule

# fixtures/rdma_app_log/dlperf-no-userspace-driver.txt
warning := {"tool": "libibverbs", "message": "Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0", "evidence": {"line": 2}}

test_fires_on_libibverbs_warning if {
	fs := rule.findings with input as {"host": {"userspace": [warning, warning]}}
	count(fs) == 1
	some f in fs
	contains(f.message, "/sys/class/infiniband_verbs/uverbs0")
}

test_fires_when_sysfs_has_devices_and_ibv_devinfo_none if {
	inp := {
		"host": {"modules": [{"name": "ib_uverbs"}], "userspace": [{"tool": "ibv_devinfo", "message": "No IB devices found", "evidence": {"line": 1}}]},
		"devices": [{"name": "mlx5_0"}],
		"sources": [
			{"name": "sysfs_infiniband", "status": "ok"},
			{"name": "ibv_devinfo", "status": "unsupported", "error": "No IB devices found"},
		],
	}
	fs := rule.findings with input as inp
	some f in fs
	f.confidence == "medium"
}

test_no_finding_when_ib_uverbs_missing if {
	# that is rdma-driver-modules-missing, not a user-space problem
	inp := {
		"host": {"modules": [{"name": "ib_core"}]},
		"devices": [{"name": "mlx5_0"}],
		"sources": [
			{"name": "sysfs_infiniband", "status": "ok"},
			{"name": "ibv_devinfo", "status": "unsupported", "error": "No IB devices found"},
		],
	}
	count(rule.findings) == 0 with input as inp
}

test_no_finding_for_memlock_warning if {
	msg := {"tool": "libibverbs", "message": "Warning: RLIMIT_MEMLOCK is 32768 bytes.", "evidence": {"line": 5}}
	count(rule.findings) == 0 with input as {"host": {"userspace": [msg]}}
}
