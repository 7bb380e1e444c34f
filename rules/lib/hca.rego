# METADATA
# title: HCA capability tables
# description: >-
#   What each ConnectX generation can do, keyed by the `CA type:` ibstat prints (MT + decimal PCI
#   device id). Sources: rule-catalog §3.3; kernel drivers/net/ethernet/mellanox/mlx5/core/main.c
#   and mlx4/main.c PCI tables (device ids, VFs); NVIDIA upstream release notes per card
#   (https://docs.nvidia.com/networking/display/Kernelupstreamv518); ConnectX-5/7/8 interface pages
#   cited in the catalog. max_lane is the fastest IB lane speed, max_width the IB width in lanes,
#   max_eth_gbps the fastest Ethernet rate, pcie_gts/pcie_width the native PCIe link.
# scope: package
package rdmadoctor.lib.hca

ca_types := {
	"MT25418": {"family": "ConnectX", "max_lane": "DDR", "max_width": 4, "max_eth_gbps": 10, "pcie_gts": 2.5, "pcie_width": 8},
	"MT26428": {"family": "ConnectX-2", "max_lane": "QDR", "max_width": 4, "max_eth_gbps": 10, "pcie_gts": 5, "pcie_width": 8},
	"MT4099": {"family": "ConnectX-3", "max_lane": "FDR", "max_width": 4, "max_eth_gbps": 56, "pcie_gts": 8, "pcie_width": 8},
	"MT4103": {"family": "ConnectX-3 Pro", "max_lane": "FDR", "max_width": 4, "max_eth_gbps": 56, "pcie_gts": 8, "pcie_width": 8},
	"MT4113": {"family": "Connect-IB", "max_lane": "FDR", "max_width": 4, "pcie_gts": 8, "pcie_width": 16},
	"MT4115": {"family": "ConnectX-4", "max_lane": "EDR", "max_width": 4, "max_eth_gbps": 100, "pcie_gts": 8, "pcie_width": 16},
	"MT4117": {"family": "ConnectX-4 Lx", "max_eth_gbps": 50, "pcie_gts": 8, "pcie_width": 8},
	"MT4119": {"family": "ConnectX-5", "max_lane": "EDR", "max_width": 4, "max_eth_gbps": 100, "pcie_gts": 8, "pcie_width": 16},
	"MT4121": {"family": "ConnectX-5 Ex", "max_lane": "EDR", "max_width": 4, "max_eth_gbps": 100, "pcie_gts": 16, "pcie_width": 16},
	"MT4123": {"family": "ConnectX-6", "max_lane": "HDR", "max_width": 4, "max_eth_gbps": 200, "pcie_gts": 16, "pcie_width": 16},
	"MT4125": {"family": "ConnectX-6 Dx", "max_eth_gbps": 200, "pcie_gts": 16, "pcie_width": 16},
	"MT4127": {"family": "ConnectX-6 Lx", "max_eth_gbps": 50, "pcie_gts": 16, "pcie_width": 8},
	"MT4129": {"family": "ConnectX-7", "max_lane": "NDR", "max_width": 4, "max_eth_gbps": 400, "pcie_gts": 32, "pcie_width": 16},
	"MT4131": {"family": "ConnectX-8", "max_lane": "XDR", "max_width": 4, "max_eth_gbps": 800, "pcie_gts": 64, "pcie_width": 16},
	"MT41686": {"family": "BlueField-2", "max_lane": "HDR", "max_width": 4, "max_eth_gbps": 200, "pcie_gts": 16, "pcie_width": 16},
	"MT41692": {"family": "BlueField-3", "max_lane": "NDR", "max_width": 4, "max_eth_gbps": 400, "pcie_gts": 32, "pcie_width": 16},
}

# vf_ca_types are SR-IOV virtual functions (kernel mlx5 main.c: 0x1014 CX-4 VF, 0x1016 CX-4 Lx VF,
# 0x1018 CX-5 VF, 0x101a CX-5 Ex VF, 0x101c CX-6 VF, 0x101e generic mlx5 VF; mlx4 0x1004 CX-3 VF).
vf_ca_types := {"MT4100", "MT4116", "MT4118", "MT4120", "MT4122", "MT4124", "MT4126"}

# split_by_design are HCAs whose IB ports run 2X by design on HDR100/NDR200 cards and splitter
# cables (rule-catalog §3.3 and 4.8).
split_by_design := {"MT4123", "MT4129", "MT4131", "MT41686", "MT41692"}

# family_by_device_type maps mstflint/mlxfwmanager "Device Type" names to CA types.
family_by_device_type := {
	"ConnectX3": "MT4099",
	"ConnectX3Pro": "MT4103",
	"ConnectIB": "MT4113",
	"ConnectX4": "MT4115",
	"ConnectX4LX": "MT4117",
	"ConnectX5": "MT4119",
	"ConnectX5EX": "MT4121",
	"ConnectX6": "MT4123",
	"ConnectX6DX": "MT4125",
	"ConnectX6LX": "MT4127",
	"ConnectX7": "MT4129",
	"ConnectX8": "MT4131",
	"BlueField2": "MT41686",
	"BlueField3": "MT41692",
}

# ca_type returns the normalised CA type of a device ("MT4115"); ibv_devinfo's vendor_part_id
# may come as a bare number. Undefined when unknown.
ca_type(dev) := t if {
	t := normalise(dev.ca_type)
	t != ""
}

normalise(s) := concat("", ["MT", s]) if {
	regex.match(`^[0-9]+$`, s)
} else := upper(s)

# caps returns the capability entry of a device; undefined for unknown types.
caps(dev) := ca_types[ca_type(dev)]

is_vf(dev) if dev.function == "VF"

is_vf(dev) if vf_ca_types[ca_type(dev)]

# type_of_firmware returns the CA type a flint/mlxfwmanager/mlxup entry is about: from its
# device type name, or from the mst device path (/dev/mst/mt4099_pci_cr0).
type_of_firmware(fw) := family_by_device_type[upper_key(fw.device_type)] if {
	fw.device_type != ""
} else := t if {
	m := regex.find_all_string_submatch_n(`mt([0-9]{4,5})_`, lower(object.get(fw, "device", "")), 1)
	count(m) == 1
	t := concat("", ["MT", m[0][1]])
}

# upper_key matches device type names case-insensitively ("ConnectX4LX" vs "ConnectX4Lx").
upper_key(s) := k if {
	some k in object.keys(family_by_device_type)
	upper(k) == upper(s)
}
