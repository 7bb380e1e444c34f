package rdmadoctor.lib.modules_test

import data.rdmadoctor.lib.modules

test_loaded_by_name_or_user if {
	mods := [{"name": "ib_core", "used_by": ["ib_uverbs", "rdma_ucm"]}]
	modules.loaded("ib_core") with input as {"host": {"modules": mods}}
	modules.loaded("rdma_ucm") with input as {"host": {"modules": mods}}
}

test_absent_in_full_lsmod if {
	modules.absent("ib_umad") with input as {"host": {"modules": [{"name": "ib_core"}]}}
}

test_not_absent_when_filter_hides_it if {
	# corpus 126: `lsmod | grep ipoib` cannot tell whether rdma_ucm is loaded
	not modules.absent("rdma_ucm") with input as {"host": {"modules": [{"name": "ib_ipoib"}], "modules_filter": "ipoib"}}
	modules.absent("ib_ipoib_x") with input as {"host": {"modules": [{"name": "ib_ipoib"}], "modules_filter": "ipoib"}}
}

test_not_absent_without_lsmod if {
	not modules.absent("ib_umad") with input as {"host": {"modules": null}}
}

test_absent_under_an_empty_filtered_capture if {
	# nv_peer_memory#46: `lsmod | grep nv_peer` printed nothing
	h := {"modules": [], "modules_filter": "nv_peer"}
	modules.absent("nv_peer_mem") with input as {"host": h}
	not modules.absent("nvidia_peermem") with input as {"host": h}
}

test_joined_filters_cover_each_pattern if {
	h := {"modules": [{"name": "mlx5_core"}], "modules_filter": "mlx|nvidia"}
	modules.absent("nvidia_peermem") with input as {"host": h}
	not modules.absent("ib_uverbs") with input as {"host": h}
}
