package rdmadoctor.rules.rdma_cm_module_missing_test

import data.rdmadoctor.rules.rdma_cm_module_missing as rule

test_fires_when_full_lsmod_lacks_rdma_ucm if {
	mods := [{"name": "mlx5_core"}, {"name": "mlx5_ib"}, {"name": "ib_core", "used_by": ["mlx5_ib", "ib_uverbs"]}, {"name": "ib_uverbs"}]
	fs := rule.findings with input as {"host": {"modules": mods}}
	count(fs) > 0
	some f in fs
	contains(f.message, "rdma_ucm is not")
}

test_fires_on_librdmacm_message if {
	# Open MPI users list 2009-12 (fixtures/rdma_app_log/ompi-librdmacm-no-abi.txt)
	msgs := [{"tool": "librdmacm", "message": "CMA: unable to open /dev/infiniband/rdma_cm", "evidence": {"line": 18}}]
	fs := rule.findings with input as {"host": {"modules": null, "userspace": msgs}}
	count(fs) == 1
}

test_no_finding_when_rdma_ucm_is_a_user_of_ib_core if {
	mods := [{"name": "mlx5_ib"}, {"name": "ib_core", "used_by": ["rdma_ucm", "mlx5_ib"]}]
	count(rule.findings) == 0 with input as {"host": {"modules": mods}}
}

test_no_finding_when_filtered_lsmod_cannot_tell if {
	# corpus 126: `lsmod | grep ipoib`
	mods := [{"name": "ib_ipoib"}, {"name": "ib_core", "used_by": ["rdma_cm", "ib_ipoib", "ib_uverbs", "mlx5_ib"]}]
	count(rule.findings) == 0 with input as {"host": {"modules": mods, "modules_filter": "ipoib"}}
}

test_no_finding_for_assuming_line_alone if {
	msgs := [{"tool": "librdmacm", "message": "assuming: 4", "evidence": {"line": 16}}]
	count(rule.findings) == 0 with input as {"host": {"userspace": msgs}}
}
