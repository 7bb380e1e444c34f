package rdmadoctor.lib.module_test

import data.rdmadoctor.lib.module

test_module_speed_from_compliance_or_identifier if {
	module.max_gbps({"identifier": "QSFP28", "compliance": ["100G Ethernet: 100G Base-SR4 or 25GBase-SR"]}) == 100
	module.max_gbps({"identifier": "QSFP+", "compliance": ["40G Ethernet: 40G Base-CR4"]}) == 40
	module.max_gbps({"identifier": "QSFP28"}) == 100
	not module.max_gbps({"identifier": "SFP"})
}

test_port_speed_from_link_modes if {
	module.port_max_gbps({"supported_link_modes": ["10000baseKX4/Full", "40000baseSR4/Full"]}) == 40
	module.port_max_gbps({"max_supported_speed_mbps": 100000}) == 100
}

test_std_gbps_reads_56g_as_40g if {
	module.std_gbps(56) == 40
	module.std_gbps(100) == 100
}

test_adapter_cap_from_device_or_mlx4_driver if {
	c := module.adapter_cap({"name": "enp1s0", "pci_address": "0000:01:00.0"}) with input as {"devices": [{"name": "mlx5_0", "ca_type": "MT4115", "pci_address": "0000:01:00.0", "ports": []}], "netdevs": []}
	c.gbps == 100
	module.adapter_cap({"name": "enp1s0", "driver": "mlx4_en"}).gbps == 56 with input as {"devices": [], "netdevs": []}
	not module.adapter_cap({"name": "enp1s0", "driver": "ixgbe"}) with input as {"devices": [], "netdevs": []}
}

test_eth_speeds_from_mlxlink_lists if {
	module.eth_speeds_gbps("200G_2X,200G_4X,100G_1X,100G_2X,100G_4X,50G_1X,50G_2X,40G,25G,10G,1G") == {200, 100, 50, 40, 25, 10, 1}
	module.eth_speeds_gbps("EDR,FDR") == set()
}

# Description lines of real mstconfig/mlxfwmanager fixtures (fixtures/mstconfig, fixtures/mlxfwmanager).
test_description_eth_gbps if {
	module.description_eth_gbps("ConnectX-5 VPI adapter card; EDR IB (100Gb/s) and 100GbE; single-port QSFP28") == {100}
	module.description_eth_gbps("HP InfiniBand FDR/Ethernet 10Gb/40Gb 2-port 544+FLR-QSFP Adapter") == {10, 40}
	module.description_eth_gbps("Mellanox ConnectX-6 Dx Dual Port 100 GbE QSFP56 Network Adapter") == {100}
	module.description_eth_gbps("NVIDIA ConnectX-7 HHHL Adapter Card; 200GbE (default mode) / NDR200 IB; Dual-port QSFP112; PCIe 5.0 x16 with x16 PCIe extension option; Crypto Disabled; Secure Boot Enabled") == {200}
	module.description_eth_gbps("Mellanox ConnectX-4 EDR IB VPI Single-port x16 PCIe 3.0 HCA") == set()
}

test_pci_slot if {
	module.pci_slot("0000:3b:00.1") == "0000:3b:00"
	module.pci_slot("3b:00.1") == ""
}
