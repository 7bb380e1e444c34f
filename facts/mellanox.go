package facts

// NVConfig is one mstconfig/mlxconfig query of one device.
type NVConfig struct {
	// Device is the device argument as given, e.g. "0000:81:00.0", "81:00.0", "/dev/mst/mt4115_pciconf0".
	Device string `json:"device"`
	// PCIAddress is the resolved BDF with domain, when known (from the argument or mst status).
	PCIAddress string `json:"pci_address,omitempty"`
	// DeviceType as printed, e.g. "ConnectX3Pro", "ConnectX6DX".
	DeviceType string `json:"device_type,omitempty"`
	// Description, e.g. "ConnectX-4 VPI adapter card; EDR IB (100Gb/s) and 100GbE; single-port QSFP28".
	Description string `json:"description,omitempty"`
	// Tool is "mstconfig" or "mlxconfig".
	Tool string `json:"tool,omitempty"`
	// Refusal is the tool's own error when it could not query, e.g. "-E- Unsupported device".
	Refusal string `json:"refusal,omitempty"`
	// Filter is set when the capture held only some of the query's parameter lines: a regular
	// expression matching the names of the parameters it could show, e.g. "SRIOV" for
	// `mlxconfig -d X q | grep SRIOV`, or, when the pattern is not known (a headerless excerpt,
	// a capture marked _FILTERED or _EXCERPT), the names it holds ("^(NUM_OF_VFS|SRIOV_EN)$").
	// A parameter the filter would not have shown (LINK_TYPE_P1 in a grep for SRIOV) is
	// unknown, not absent.
	Filter string `json:"filter,omitempty"`
	// Params by name (e.g. "LINK_TYPE_P1"). Values are as printed, e.g. "IB(1)", "ETH(2)", "True(1)", "16".
	Params   map[string]NVParam `json:"params,omitempty"`
	Evidence EvidenceMap        `json:"evidence,omitempty"`
}

// NVParam is one firmware configuration parameter. Default and Current are only known from the
// `-e` form; plain `query` prints the next-boot value ("Configurations: Next Boot").
type NVParam struct {
	Default  string `json:"default,omitempty"`
	Current  string `json:"current,omitempty"`
	NextBoot string `json:"next_boot,omitempty"`
	// Modified is set when mstconfig marked the line with `*` (differs from default).
	Modified bool     `json:"modified,omitempty"`
	Evidence Evidence `json:"evidence"`
}

// FirmwareInfo is a firmware identity from flint/mstflint `q`, mlxfwmanager or mlxup `--query`.
type FirmwareInfo struct {
	// Tool is flint, mstflint, mlxfwmanager or mlxup.
	Tool string `json:"tool"`
	// Device as the tool names it (`-d` argument or the `Device:`/`PCI Device Name:` line).
	Device     string `json:"device,omitempty"`
	PCIAddress string `json:"pci_address,omitempty"`
	// DeviceType, e.g. "ConnectX4", "ConnectX7".
	DeviceType  string `json:"device_type,omitempty"`
	PartNumber  string `json:"part_number,omitempty"`
	Description string `json:"description,omitempty"`
	// PSID, e.g. "MT_2190110032" or an OEM one such as "HP_2420110034".
	PSID string `json:"psid,omitempty"`
	// Version is the running/installed firmware, e.g. "12.28.2040".
	Version string `json:"version,omitempty"`
	// AvailableVersion is the image mlxfwmanager/mlxup would install; empty when none.
	AvailableVersion string `json:"available_version,omitempty"`
	// Status from mlxfwmanager/mlxup, e.g. "Update required", "Up to date", "No matching image found".
	Status string `json:"status,omitempty"`
	// PendingVersion is the firmware image on flash when flint q also prints a different
	// "FW Version(Running)": burned but not yet activated (needs a reset or reboot).
	PendingVersion string `json:"pending_version,omitempty"`
	// ImageType ("FS2", "FS3", "FS4"), ReleaseDate ("15.9.2020" as printed), ProductVersion and
	// DeviceID (PCI device id in decimal as printed, e.g. "4099") from flint/mstflint q.
	ImageType      string `json:"image_type,omitempty"`
	ReleaseDate    string `json:"release_date,omitempty"`
	ProductVersion string `json:"product_version,omitempty"`
	DeviceID       string `json:"device_id,omitempty"`
	// BaseGUID and BaseMAC from flint q (FS2 images: the node GUID and the first port MAC).
	BaseGUID string      `json:"base_guid,omitempty"`
	BaseMAC  string      `json:"base_mac,omitempty"`
	Refusal  string      `json:"refusal,omitempty"`
	Evidence EvidenceMap `json:"evidence,omitempty"`
}

// MSTDevice is one line of `mst status`.
type MSTDevice struct {
	// Path, e.g. "/dev/mst/mt4115_pciconf0".
	Path string `json:"path"`
	// PCIAddress with domain, e.g. "0000:81:00.0".
	PCIAddress string `json:"pci_address,omitempty"`
	// RDMADevice and Netdev when `mst status -v` lists them; Netdev is set only when the NET
	// column names exactly one interface (all of them are in Netdevs, without the "net-" prefix).
	RDMADevice string   `json:"rdma_device,omitempty"`
	Netdev     string   `json:"netdev,omitempty"`
	Netdevs    []string `json:"netdevs,omitempty"`
	// DeviceType and NUMANode from `mst status -v` (DEVICE_TYPE "ConnectX7(rev:0)", NUMA -1 = none).
	DeviceType string   `json:"device_type,omitempty"`
	NUMANode   *int     `json:"numa_node"`
	Evidence   Evidence `json:"evidence"`
}

// MlxLink is one mlxlink/mstlink report.
type MlxLink struct {
	// Device as given to -d, e.g. "0000:81:00.0" or "/dev/mst/mt4115_pciconf1".
	Device     string `json:"device"`
	PCIAddress string `json:"pci_address,omitempty"`
	// PortType is "NETWORK" or "PCIE".
	PortType string `json:"port_type"`
	// State and PhysicalState from "Operational Info", e.g. "Active", "LinkUp".
	State         string `json:"state,omitempty"`
	PhysicalState string `json:"physical_state,omitempty"`
	// Speed as printed, e.g. "IB-FDR", "100G", "BaseTx100M"; for PCIE e.g. "16G-Gen 4".
	Speed string `json:"speed,omitempty"`
	// WidthLanes from `Width : 4x`.
	WidthLanes *int `json:"width_lanes"`
	// FEC, e.g. "No FEC", "Standard RS-FEC - RS(528,514)".
	FEC string `json:"fec,omitempty"`
	// EnabledLinkSpeed and SupportedCableSpeed as printed, e.g. "FDR,FDR10,QDR,DDR,SDR".
	EnabledLinkSpeed    string `json:"enabled_link_speed,omitempty"`
	SupportedCableSpeed string `json:"supported_cable_speed,omitempty"`
	// Cable/module info ("Module Info" section).
	CableType       string `json:"cable_type,omitempty"`
	CableLength     string `json:"cable_length,omitempty"`
	CableVendor     string `json:"cable_vendor,omitempty"`
	CablePN         string `json:"cable_pn,omitempty"`
	CableIdentifier string `json:"cable_identifier,omitempty"`
	// StatusOpcode and Recommendation from "Troubleshooting Info".
	StatusOpcode   *int   `json:"status_opcode"`
	GroupOpcode    string `json:"group_opcode,omitempty"`
	StatusMessage  string `json:"status_message,omitempty"`
	Recommendation string `json:"recommendation,omitempty"`
	// Port is the network port the report is about (-p in the command; mlxlink's default is 1);
	// nil when the command line is not known.
	Port *int `json:"port"`
	// FirmwareVersion from "Tool Information", e.g. "16.35.4506": its major number names the
	// adapter generation (16 = ConnectX-5) when nothing else does.
	FirmwareVersion string `json:"firmware_version,omitempty"`
	// PCIe view (--port_type PCIE): link speed active and enabled, width active and enabled.
	PCIeSpeedActive  string `json:"pcie_speed_active,omitempty"`
	PCIeSpeedEnabled string `json:"pcie_speed_enabled,omitempty"`
	PCIeWidthActive  *int   `json:"pcie_width_active"`
	PCIeWidthEnabled *int   `json:"pcie_width_enabled"`
	// Fields holds every "key : value" line by section ("Operational Info/Speed"), for forward compatibility.
	Fields   map[string]string `json:"fields,omitempty"`
	Refusal  string            `json:"refusal,omitempty"`
	Evidence EvidenceMap       `json:"evidence,omitempty"`
}
