package facts

// SchemaVersion is the version of the Snapshot document; bump it on incompatible changes.
const SchemaVersion = 1

// Snapshot is the fact document the rules evaluate. Lists are sorted (devices by name, ports by
// number, netdevs by name, PCI functions by address) so output is deterministic.
type Snapshot struct {
	SchemaVersion int        `json:"schema_version"`
	Source        SourceInfo `json:"source"`
	Host          Host       `json:"host"`
	// Devices are RDMA devices (HCAs, VFs, RoCE NICs), from ibstat, ibstatus, ibv_devinfo,
	// /sys/class/infiniband and rdma link, merged by device name.
	Devices []Device `json:"devices"`
	// Netdevs are network interfaces, from ip addr/link, ethtool and /sys/class/net.
	Netdevs []Netdev `json:"netdevs"`
	// PCI holds PCI functions from lspci (-vvv, -nnvv, -tv or filtered excerpts).
	PCI []PCIFunction `json:"pci"`
	// NVConfig holds mstconfig/mlxconfig queries, one per queried device.
	NVConfig []NVConfig `json:"nvconfig"`
	// Firmware holds firmware identities from flint/mstflint q, mlxfwmanager and mlxup --query.
	Firmware []FirmwareInfo `json:"firmware"`
	// MSTDevices maps /dev/mst names to PCI addresses, from `mst status`.
	MSTDevices []MSTDevice `json:"mst_devices"`
	// MlxLink holds mlxlink/mstlink reports, network and PCIe views.
	MlxLink []MlxLink `json:"mlxlink"`
	// PortInfo holds the PortInfo blocks ibportstate printed (link width and speed supported,
	// enabled and active).
	PortInfo []PortInfo `json:"port_info"`
	// GIDListings are what GID listing tools (show_gids) counted in all, one per capture.
	GIDListings []GIDListing `json:"gid_listings,omitempty"`
	// IRQs are the RDMA-related lines of /proc/interrupts with their affinity.
	IRQs []IRQ `json:"irqs"`
	// Perftest holds the runs of perftest benchmarks (ib_write_bw, ib_read_lat, ...) found in
	// the snapshot, in the order read.
	Perftest []PerftestRun `json:"perftest,omitempty"`
	// Fabric holds views of the IB fabric beyond this node (iblinkinfo, sminfo, perfquery, ...).
	Fabric Fabric `json:"fabric"`
	// Sample is set when counters were read twice (gather --sample); Port.CounterDeltas then hold rates.
	Sample *CounterSample `json:"sample"`
	// Sources lists every input looked for, with its status.
	Sources []Source `json:"sources"`
	// Available lists the fact groups (FactGroups) the sources provide; rules' `requires` are checked against it.
	Available []string `json:"available"`
	// Profile is the site intent from --profile; null without one.
	Profile *Profile `json:"profile"`
}

// CounterSample describes a two-sample counter read.
type CounterSample struct {
	// IntervalSeconds is the time between the two reads.
	IntervalSeconds float64 `json:"interval_seconds"`
}
