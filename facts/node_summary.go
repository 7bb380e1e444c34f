package facts

// NodeSummary is what fleet rules compare across nodes: one node's devices, ports, drivers and
// settings, each with the evidence line it was read from so a fleet diagnosis can quote it.
// A fact the node's snapshot did not hold is absent/null, never zero: nodes are compared only
// on what both showed. facts/summary.Summarize builds it from a Snapshot; fleet rules see it as
// input.nodes[_] (docs/fleet.schema.json).
type NodeSummary struct {
	// Host is the node's label in the fleet report (report.FleetNode.Host).
	Host string `json:"host"`
	// Hostname is the hostname the snapshot itself names (hostname, uname -n); empty when none.
	Hostname string `json:"hostname,omitempty"`
	// Available lists the fact groups the node's snapshot provided (Snapshot.Available).
	Available []string `json:"available"`
	// Kernel is the kernel release, e.g. "5.14.0-427.13.1.el9_4.x86_64" (uname -r or the
	// release field of uname -a); empty when not captured.
	Kernel string `json:"kernel,omitempty"`
	// Devices are the node's RDMA devices (the first capture of each, by name), and the
	// Mellanox adapters the firmware tools (flint, mlxfwmanager, mstconfig) queried that no
	// RDMA device is joined to by PCI address (Name empty), sorted by name, then PCI address.
	Devices []SummaryDevice `json:"devices"`
	// IPoIB are the node's IPoIB netdevs (the first capture of each), sorted by name.
	IPoIB []SummaryIPoIB `json:"ipoib"`
	// Drivers are the versions of the kernel modules the node reports one for: `modinfo`'s
	// version:, else `ethtool -i`'s driver and version: of a netdev (for mlx5_core the MLNX_OFED
	// release, e.g. "24.04-0.6.6", or the kernel release for the inbox driver), sorted by name.
	Drivers []SummaryDriver `json:"drivers"`
	// Sysctls are the RDMA-relevant sysctls the snapshot holds (summary.KeySysctls), by dotted
	// name, values as read ("4194304", "4096 87380 4194304"); evidence under "sysctls.<name>".
	Sysctls map[string]string `json:"sysctls,omitempty"`
	// Memlock is the locked-memory limit of the captured context (ulimit -l or -a), KiB.
	Memlock *MemlockLimit `json:"memlock"`
	// Evidence keyed "kernel", "hostname", "sysctls.<name>".
	Evidence EvidenceMap `json:"evidence,omitempty"`
}

// SummaryDevice is one RDMA device or one queried adapter PCI function of a node.
type SummaryDevice struct {
	// Name is the RDMA device name, e.g. "mlx5_0"; empty for an adapter only the firmware
	// tools saw.
	Name string `json:"name,omitempty"`
	// CAType is the HCA model, e.g. "MT4123" (ibstat `CA type:`, sysfs hca_type, ibv_devinfo
	// vendor_part_id).
	CAType string `json:"ca_type,omitempty"`
	// DeviceType is the adapter generation as the firmware tools print it, e.g. "ConnectX6"
	// (flint `Device Type:`, mlxfwmanager, mstconfig `Device type:`).
	DeviceType string `json:"device_type,omitempty"`
	// PSID is the board's PSID, e.g. "MT_0000000223" (sysfs board_id, ibv_devinfo board_id, else
	// flint/mlxfwmanager PSID:, else the "(MT_...)" that mlx drivers append to `ethtool -i`
	// firmware-version), joined by PCI address.
	PSID string `json:"psid,omitempty"`
	// Firmware is the running firmware version, e.g. "20.41.1000" (ibstat `Firmware version:`,
	// sysfs fw_ver, ibv_devinfo fw_ver, else flint/mlxfwmanager, else `ethtool -i`).
	Firmware string `json:"firmware,omitempty"`
	// PCIAddress is the BDF with domain, e.g. "0000:81:00.0".
	PCIAddress string `json:"pci_address,omitempty"`
	// Function is "PF" or "VF"; empty when unknown.
	Function string `json:"function,omitempty"`
	// NUMANode is the device's NUMA node (sysfs device/numa_node, lspci, mst status -v); -1
	// means the firmware reported none.
	NUMANode *int `json:"numa_node"`
	// LinkTypes are the LINK_TYPE_P<n> parameters of the adapter's mstconfig/mlxconfig query,
	// by parameter name, the configured (next boot) value as printed: {"LINK_TYPE_P1": "IB(1)"}.
	// A query filtered so that it could not show LINK_TYPE leaves them unknown (absent).
	LinkTypes map[string]string `json:"link_types,omitempty"`
	// Ports sorted by number.
	Ports []SummaryPort `json:"ports"`
	// IRQ is how the device's interrupts spread over the CPUs; null when /proc/interrupts
	// was not captured or names no interrupt of the device's PCI address.
	IRQ *IRQSpread `json:"irq"`
	// Evidence keyed "ca_type", "device_type", "psid", "firmware", "pci_address", "numa_node",
	// "link_types.<param>".
	Evidence EvidenceMap `json:"evidence,omitempty"`
}

// SummaryPort is one port of a device, as the node's port sources saw it. Its fields are those of
// Port by the same JSON names (state, physical_state in ibstat's words; rate_gbps in Gb/s, only
// meaningful when Active; width_lanes; lane_speed SDR ... XDR; link_layer; netdev).
type SummaryPort struct {
	Number        int      `json:"number"`
	State         string   `json:"state,omitempty"`
	PhysicalState string   `json:"physical_state,omitempty"`
	RateGbps      *float64 `json:"rate_gbps"`
	WidthLanes    *int     `json:"width_lanes"`
	LaneSpeed     string   `json:"lane_speed,omitempty"`
	LinkLayer     string   `json:"link_layer,omitempty"`
	Netdev        string   `json:"netdev,omitempty"`
	// Counters are the port's error counters since boot or last clear (sysfs counters/,
	// perfquery), by sysfs name: symbol_error, link_downed, link_error_recovery,
	// port_rcv_errors, port_xmit_discards, local_link_integrity_errors,
	// excessive_buffer_overrun_errors (the ones the snapshot has).
	Counters map[string]int64 `json:"counters,omitempty"`
	// Evidence keyed like Port's: "state", "physical_state", "rate_gbps", "width_lanes",
	// "lane_speed", "link_layer", "counters.<name>".
	Evidence EvidenceMap `json:"evidence,omitempty"`
}

// IRQSpread is how one device's interrupts land on CPUs (/proc/interrupts and
// /proc/irq/N/{smp,effective}_affinity_list).
type IRQSpread struct {
	// IRQs counts the /proc/interrupts lines of the device's PCI address.
	IRQs int `json:"irqs"`
	// AffinityCPUs counts the distinct CPUs their affinity lists allow (effective affinity
	// where captured, else smp_affinity_list); null when no affinity was captured.
	AffinityCPUs *int `json:"affinity_cpus"`
	// InterruptedCPUs counts the distinct CPUs whose /proc/interrupts count for any of them is
	// above zero.
	InterruptedCPUs int `json:"interrupted_cpus"`
	// Evidence is the first of the lines.
	Evidence Evidence `json:"evidence"`
}

// SummaryIPoIB is one IPoIB interface.
type SummaryIPoIB struct {
	// Name, e.g. "ib0", "ib0.8001".
	Name string `json:"name"`
	// Mode is "datagram" or "connected" (sysfs mode, ip -d link); empty when unknown.
	Mode string `json:"mode,omitempty"`
	// MTU in bytes (ip link, sysfs mtu).
	MTU *int `json:"mtu"`
	// Parent and PKey of a P_Key child (ip -d link).
	Parent string `json:"parent,omitempty"`
	PKey   string `json:"pkey,omitempty"`
	// Device and Port are the RDMA port it runs on, when the snapshot joins one.
	Device string `json:"device,omitempty"`
	Port   *int   `json:"port"`
	// Evidence keyed "mode", "mtu" (Netdev's keys, "ipoib_mode" read as "mode").
	Evidence EvidenceMap `json:"evidence,omitempty"`
}

// SummaryDriver is one kernel module's version.
type SummaryDriver struct {
	// Name is the module name with underscores, e.g. "mlx5_core".
	Name string `json:"name"`
	// Version as printed, e.g. "24.04-0.6.6" or "5.14.0-427.el9.x86_64".
	Version string `json:"version"`
	// Evidence is the line that gave the version.
	Evidence Evidence `json:"evidence"`
}
