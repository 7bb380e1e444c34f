package facts

// MellanoxVerbsVendorID is the vendor_id mlx4 and mlx5 devices report to verbs (ibv_devinfo
// vendor_id): Mellanox's IEEE OUI 00-02-C9.
const MellanoxVerbsVendorID = "0x02c9"

// Device is one RDMA device (an HCA, a VF or a RoCE-capable NIC function).
type Device struct {
	// Name is the RDMA device name, e.g. "mlx5_0" (ibstat's `CA '...'`, sysfs directory name).
	Name string `json:"name"`
	// Capture labels a second capture of the same device name in one snapshot (e.g. "node02",
	// "initializing"); empty for the first.
	Capture string `json:"capture,omitempty"`
	// VendorID is the vendor id the driver reports to verbs, as ibv_devinfo prints it, lower
	// case, e.g. "0x02c9" (Mellanox's IEEE OUI, mlx4 and mlx5), "0x8086" (irdma: Intel's PCI
	// vendor id), "0x14e4" (bnxt_re: Broadcom's).
	VendorID string `json:"vendor_id,omitempty"`
	// CAType is the HCA model, e.g. "MT4115" (ibstat `CA type:`, sysfs hca_type, ibv_devinfo
	// vendor_part_id of a device whose vendor_id is Mellanox's or not printed).
	CAType string `json:"ca_type,omitempty"`
	// Firmware is the running firmware version, e.g. "12.28.2040" (ibstat, sysfs fw_ver, ibv_devinfo fw_ver).
	Firmware string `json:"firmware,omitempty"`
	// HardwareVersion from ibstat `Hardware version:` or sysfs hw_rev.
	HardwareVersion string `json:"hw_version,omitempty"`
	// BoardID is the PSID, e.g. "MT_2190110032" (sysfs board_id, ibv_devinfo board_id).
	BoardID string `json:"board_id,omitempty"`
	// NodeGUID as 0x-prefixed 16 hex digits (ibstat `Node GUID:`, sysfs node_guid normalised).
	NodeGUID string `json:"node_guid,omitempty"`
	// SystemImageGUID as 0x-prefixed 16 hex digits.
	SystemImageGUID string `json:"sys_image_guid,omitempty"`
	// NumPorts from ibstat `Number of ports:` or ibv_devinfo phys_port_cnt.
	NumPorts *int `json:"num_ports"`
	// PCIAddress is the full BDF with domain, e.g. "0000:81:00.0" (sysfs device link, ibdev2netdev -v, joins).
	PCIAddress string `json:"pci_address,omitempty"`
	// Function is "PF" or "VF"; empty when unknown (from lspci "Virtual Function" or the CA type).
	Function string `json:"function,omitempty"`
	// NUMANode from sysfs device/numa_node; -1 means the firmware did not report one.
	NUMANode *int `json:"numa_node"`
	// LocalCPUList from sysfs device/local_cpulist, e.g. "0-15,32-47".
	LocalCPUList string `json:"local_cpulist,omitempty"`
	// LocalCPUs is LocalCPUList expanded.
	LocalCPUs []int `json:"local_cpus,omitempty"`
	// Ports sorted by number.
	Ports []Port `json:"ports"`
	// HWCounters are per-device driver counters (sysfs /sys/class/infiniband/<dev>/hw_counters/,
	// e.g. the mlx4 diagnostic counters rq_num_oos, sq_num_tree), by name; counts since boot.
	HWCounters map[string]int64 `json:"hw_counters,omitempty"`
	// HWCounterDeltas hold increases of HWCounters over Snapshot.Sample's interval, by name.
	HWCounterDeltas map[string]int64 `json:"hw_counter_deltas,omitempty"`
	Evidence        EvidenceMap      `json:"evidence,omitempty"`
}

// Port is one port of an RDMA device.
type Port struct {
	// Number is the 1-based port number.
	Number int `json:"number"`
	// State is the logical port state, in ibstat's words: Down, Initializing, Armed, Active
	// (sysfs "2: INIT" and ibv_devinfo "PORT_INIT (2)" are normalised to these).
	State string `json:"state,omitempty"`
	// PhysicalState in ibstat's words: Sleep, Polling, Disabled, PortConfigurationTraining, LinkUp,
	// LinkErrorRecovery, PhyTest.
	PhysicalState string `json:"physical_state,omitempty"`
	// RateGbps from ibstat `Rate:` or sysfs rate ("100 Gb/sec (4X EDR)"). Meaningless unless Active.
	RateGbps *float64 `json:"rate_gbps"`
	// WidthLanes is the active link width in lanes (4 for "4X"), from sysfs rate, ibstatus or ibv_devinfo active_width.
	WidthLanes *int `json:"width_lanes"`
	// LaneSpeed is the lane speed name: SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR.
	LaneSpeed string `json:"lane_speed,omitempty"`
	// LinkLayer is "InfiniBand" or "Ethernet" (ibstat `Link layer:`, sysfs link_layer).
	LinkLayer string `json:"link_layer,omitempty"`
	// LID is the base LID (ibstat `Base lid:`); 0 or 65535 mean unassigned on InfiniBand.
	LID *int `json:"lid"`
	// SMLID is the LID of the master SM (ibstat `SM lid:`); always 0 on RoCE.
	SMLID *int `json:"sm_lid"`
	// LMC from ibstat `LMC:`.
	LMC *int `json:"lmc"`
	// CapabilityMask as printed, e.g. "0x2651e848".
	CapabilityMask string `json:"capability_mask,omitempty"`
	// IsSMDisabled is set when the capability mask or ibv_devinfo lists IsSMDisabled.
	IsSMDisabled *bool `json:"is_sm_disabled"`
	// PortGUID as 0x-prefixed 16 hex digits.
	PortGUID string `json:"port_guid,omitempty"`
	// SubnetPrefix from GID 0, e.g. "fe80:0000:0000:0000".
	SubnetPrefix string `json:"subnet_prefix,omitempty"`
	// ActiveMTU and MaxMTU in bytes (ibv_devinfo `active_mtu: 4096 (5)`).
	ActiveMTU *int `json:"active_mtu"`
	MaxMTU    *int `json:"max_mtu"`
	// GIDs from sysfs gids/ + gid_attrs, show_gids or ibv_devinfo -v.
	GIDs []GID `json:"gids,omitempty"`
	// PKeys as printed, e.g. "0xffff" (sysfs pkeys/N).
	PKeys []string `json:"pkeys,omitempty"`
	// Netdev is the network interface of this port (ibdev2netdev, sysfs, show_gids).
	Netdev string `json:"netdev,omitempty"`
	// Counters are PortCounters since boot or last clear (sysfs counters/, perfquery), by sysfs name.
	Counters map[string]int64 `json:"counters,omitempty"`
	// HWCounters are driver counters (sysfs hw_counters/), by name.
	HWCounters map[string]int64 `json:"hw_counters,omitempty"`
	// CounterDeltas hold counter increases over Snapshot.Sample's interval (both sets, by name).
	CounterDeltas map[string]int64 `json:"counter_deltas,omitempty"`
	Evidence      EvidenceMap      `json:"evidence,omitempty"`
}

// GID is one entry of a port's GID table.
type GID struct {
	Index int `json:"index"`
	// GID as printed, e.g. "fe80:0000:0000:0000:0e42:a1ff:fe9b:1a2c" or "0000:...:ffff:c0a8:0101".
	GID string `json:"gid"`
	// Type is "IB", "RoCE v1" or "RoCE v2"; empty when unknown.
	Type string `json:"type,omitempty"`
	// IPv4 is the address embedded in a ::ffff:a.b.c.d GID, if any.
	IPv4 string `json:"ipv4,omitempty"`
	// Netdev is the interface the GID belongs to (gid_attrs/ndevs, show_gids).
	Netdev   string   `json:"netdev,omitempty"`
	Evidence Evidence `json:"evidence"`
}
