package rdmadoctor.rules.ib_umad_missing_test

import data.rdmadoctor.rules.ib_umad_missing as rule

full_lsmod := [{"name": "mlx5_core"}, {"name": "mlx5_ib"}, {"name": "ib_core", "used_by": ["mlx5_ib", "ib_uverbs", "rdma_ucm"]}]

test_fires_when_full_lsmod_lacks_ib_umad if {
	fs := rule.findings with input as {"host": {"modules": full_lsmod}}
	some f in fs
	f.subject == {}
	not f.severity
}

test_fires_as_error_on_sm_host if {
	svc := {"opensm": {"active": "failed", "loaded": "loaded"}}
	fs := rule.findings with input as {"host": {"modules": full_lsmod, "services": svc}}
	some f in fs
	f.severity == "error"
}

test_fires_on_ibstat_refusal if {
	# Open MPI users list: ibstat on a node without ib_umad
	msg := "ibwarn: [4260] umad_init: can't read ABI version from /sys/class/infiniband_mad/abi_version (No such file or directory): is ib_umad module loaded?"
	fs := rule.findings with input as {"host": {"userspace": [{"tool": "ibstat", "message": msg, "evidence": {"line": 1}}]}}
	count(fs) == 1
}

test_no_finding_when_ib_umad_loaded if {
	mods := array.concat(full_lsmod, [{"name": "ib_umad"}])
	count(rule.findings) == 0 with input as {"host": {"modules": mods}}
}

test_no_finding_for_filtered_lsmod if {
	count(rule.findings) == 0 with input as {"host": {"modules": full_lsmod, "modules_filter": "mlx"}}
}

test_no_finding_for_other_abi_message if {
	msg := "libibverbs: Fatal: couldn't read uverbs ABI version."
	count(rule.findings) == 0 with input as {"host": {"userspace": [{"tool": "libibverbs", "message": msg, "evidence": {}}]}}
}

test_fires_as_info_on_roce_only_node if {
	devs := [{"name": "mlx5_0", "ports": [{"number": 1, "link_layer": "Ethernet"}]}]
	fs := rule.findings with input as {"host": {"modules": full_lsmod}, "devices": devs}
	some f in fs
	f.severity == "info"
}
