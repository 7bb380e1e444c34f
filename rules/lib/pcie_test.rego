package rdmadoctor.lib.pcie_test

import data.rdmadoctor.lib.pcie

test_bandwidth_from_speed_and_width if {
	pcie.bandwidth({"speed_gts": 8, "width": 16}) == 126.016
	pcie.bandwidth({"speed_gts": 16, "width": 16, "bandwidth_gbps": 252.048}) == 252.048
	not pcie.bandwidth({"speed_gts": null, "width": 8})
}

test_gen_of_mlxlink_speed if {
	pcie.gen("2.5G-Gen 1") == 1
	pcie.gen("16G-Gen 4") == 4
}

test_usable_after_tlp_overhead if {
	u := pcie.usable_gbps({"speed_gts": 8, "width": 8})
	u > 57.5
	u < 57.7
	not pcie.usable_gbps({"speed_gts": 8, "width": null})
}
