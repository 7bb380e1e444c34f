package rdmadoctor.lib.hca_test

import data.rdmadoctor.lib.hca

test_ca_type_accepts_vendor_part_id if {
	hca.ca_type({"ca_type": "25418"}) == "MT25418"
	hca.ca_type({"ca_type": "MT4115"}) == "MT4115"
	hca.caps({"ca_type": "MT4123"}).max_lane == "HDR"
}

test_vf_by_type_or_function if {
	hca.is_vf({"ca_type": "MT4124"})
	hca.is_vf({"ca_type": "MT4123", "function": "VF"})
	not hca.is_vf({"ca_type": "MT4123"})
}

test_type_of_firmware if {
	hca.type_of_firmware({"device_type": "ConnectX7", "device": "/dev/mst/mt4129_pciconf0"}) == "MT4129"
	hca.type_of_firmware({"device_type": "", "device": "/dev/mst/mt4099_pci_cr0"}) == "MT4099"
	hca.type_of_firmware({"device_type": "ConnectX4Lx"}) == "MT4117"
}

test_type_of_fw_version if {
	hca.type_of_fw_version("16.35.4506") == "MT4119"
	hca.type_of_fw_version("12.28.2040") == "MT4115"
	not hca.type_of_fw_version("2.42.5000")
	not hca.type_of_fw_version("N/A")
}

test_table_rows_have_sources if {
	every t, row in hca.ca_types {
		startswith(t, "MT")
		row.source != ""
		row.family != ""
	}
}
