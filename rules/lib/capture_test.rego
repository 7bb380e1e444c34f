package rdmadoctor.lib.capture_test

import data.rdmadoctor.lib.capture

test_whole_capture_shows_everything if {
	capture.shows({"device": "61:00.0", "params": {}}, "LINK_TYPE_P1")
}

test_grep_sriov_does_not_show_link_type if {
	# corpus 013: mlxconfig -d /dev/mst/mt4123_pciconf5 q | grep SRIOV
	not capture.shows({"filter": "SRIOV"}, "LINK_TYPE_P1")
	capture.shows({"filter": "SRIOV"}, "SRIOV_EN")
}

test_names_held_show_only_themselves if {
	not capture.shows({"filter": "^(NUM_OF_VFS|SRIOV_EN)$"}, "LINK_TYPE_P1")
}

test_case_folded_lspci_grep if {
	# corpus 036: lspci | grep Mell; an "lspci | grep -i mell" excerpt shows the header, not the driver line
	capture.shows({"filter": "(?i)mell"}, "17:00.0 Ethernet controller: Mellanox Technologies MT28800 Family [ConnectX-5 Ex]")
	not capture.shows({"filter": "(?i)mell"}, "\tKernel driver in use: mlx5_core")
}
