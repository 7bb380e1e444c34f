# METADATA
# title: HCA capability tables
# description: >-
#   What each ConnectX generation can do, keyed by the `CA type:` ibstat prints (MT + decimal PCI
#   device id): the table rules/data/hca_models.yaml, each row with its source (rule-catalog §3.3;
#   kernel mlx4/mlx5 PCI tables; NVIDIA release notes). max_lane is the fastest IB lane speed,
#   max_width the IB width in lanes, max_eth_gbps the fastest Ethernet rate, fw_major the firmware
#   major number of the generation, pcie_gts/pcie_width the native PCIe link. The CA type of a
#   device comes from ibstat/sysfs/ibv_devinfo, of an mst device from its name (mt4115_pciconf0),
#   of an mlxlink report from its device or its firmware version.
# scope: package
package rdmadoctor.lib.hca

# ca_types is the table of rules/data/hca_models.yaml (with its sources).
ca_types := data.data.hca_models

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

# type_of_fw_version returns the CA type whose generation runs firmware with the major number
# of v ("16.35.4506" -> MT4119): the first in sort order when two types share it (ConnectX-5 and
# -5 Ex, both EDR/100GbE); undefined for 2.x (ConnectX to ConnectX-3) and unknown majors.
type_of_fw_version(v) := ts[0] if {
	regex.match(`^[0-9]+\.[0-9]+\.[0-9]+$`, v)
	major := to_number(split(v, ".")[0])
	ts := sort([k | some k, row in ca_types; object.get(row, "fw_major", -1) == major])
	count(ts) > 0
}
