package rdmadoctor.rules.hugepages_thp_config_test

import data.rdmadoctor.rules.hugepages_thp_config as rule

test_fires_with_vfio_and_no_hugepages if {
	fs := rule.findings with input as {"host": {"hugepages_total": 0, "modules": [{"name": "vfio_pci"}, {"name": "mlx5_core"}]}}
	count(fs) == 1
}

test_no_finding_without_dpdk_modules if {
	count(rule.findings) == 0 with input as {"host": {"hugepages_total": 0, "modules": [{"name": "mlx5_core"}]}}
}

test_no_finding_with_hugepages if {
	count(rule.findings) == 0 with input as {"host": {"hugepages_total": 1024, "modules": [{"name": "vfio_pci"}]}}
}

test_no_finding_when_meminfo_unknown if {
	count(rule.findings) == 0 with input as {"host": {"hugepages_total": null, "modules": [{"name": "vfio_pci"}]}}
}
