package facts

// Netdev kinds.
const (
	NetdevIPoIB    = "ipoib"
	NetdevEthernet = "ethernet"
	NetdevOther    = "other"
)

// Netdev is one network interface.
type Netdev struct {
	// Name, e.g. "ib0", "enp1s0f0np0".
	Name string `json:"name"`
	// Capture labels a second capture of the same interface name in one snapshot (the file's
	// "__label", e.g. "before_fix"); empty for the first.
	Capture string `json:"capture,omitempty"`
	// Kind is ipoib, ethernet or other (from `link/infiniband` vs `link/ether`, the driver, or sysfs type).
	Kind string `json:"kind,omitempty"`
	// IPoIBMode is "connected" or "datagram" (sysfs mode); empty when unknown.
	IPoIBMode string `json:"ipoib_mode,omitempty"`
	// Parent is the lower interface `ip link` prints after "@" ("ib0" of "ib0.8001@ib0"): an
	// IPoIB P_Key child's parent, a VLAN's lower device; empty when none is printed ("@NONE").
	Parent string `json:"parent,omitempty"`
	// PKey is the IPoIB partition key `ip -d link` prints ("ipoib pkey  0x8001 mode  datagram"),
	// e.g. "0x8001"; empty when not printed (children created through sysfs on kernels before 5.10).
	PKey string `json:"pkey,omitempty"`
	// MTU in bytes (ip link `mtu`, sysfs mtu).
	MTU *int `json:"mtu"`
	// OperState as ip prints it: UP, DOWN, UNKNOWN, LOWERLAYERDOWN.
	OperState string `json:"operstate,omitempty"`
	// AdminUp is true when the interface flags contain UP.
	AdminUp *bool `json:"admin_up"`
	// Carrier is false on NO-CARRIER, true on LOWER_UP (ip) or sysfs carrier 1.
	Carrier *bool `json:"carrier"`
	// Flags as ip prints them, e.g. ["BROADCAST","MULTICAST","UP","LOWER_UP"].
	Flags []string `json:"flags,omitempty"`
	// LinkAddress is the MAC (Ethernet) or 20-byte IPoIB hardware address.
	LinkAddress string `json:"link_address,omitempty"`
	// IPv4 addresses in CIDR form.
	IPv4 []string `json:"ipv4,omitempty"`
	// IPv6 addresses with their scope.
	IPv6 []IPv6Address `json:"ipv6,omitempty"`
	// DisableIPv6 from /proc/sys/net/ipv6/conf/<if>/disable_ipv6 or sysctl.
	DisableIPv6 *bool `json:"disable_ipv6"`
	// Driver, DriverVersion, FirmwareVersion and BusInfo from `ethtool -i`.
	Driver          string `json:"driver,omitempty"`
	DriverVersion   string `json:"driver_version,omitempty"`
	FirmwareVersion string `json:"firmware_version,omitempty"`
	BusInfo         string `json:"bus_info,omitempty"`
	// FirmwarePSID is the board PSID that mlx drivers append to `ethtool -i` firmware-version,
	// e.g. "MT_0000000838" from "28.39.1002 (MT_0000000838)".
	FirmwarePSID string `json:"firmware_psid,omitempty"`
	// EthtoolRefusal is what plain `ethtool <if>` could not report, e.g. "netlink error: failed
	// to retrieve link settings: Invalid argument" (mlx5 IPoIB before kernel 6.2).
	EthtoolRefusal string `json:"ethtool_refusal,omitempty"`
	// SpeedMbps from ethtool `Speed:`; null when "Unknown!".
	SpeedMbps *int `json:"speed_mbps"`
	// Duplex and PortType ("Direct Attach Copper", "FIBRE") from ethtool.
	Duplex   string `json:"duplex,omitempty"`
	PortType string `json:"port_type,omitempty"`
	// LinkDetected from ethtool `Link detected:`.
	LinkDetected *bool `json:"link_detected"`
	// SupportedLinkModes and AdvertisedLinkModes from ethtool, e.g. "40000baseCR4/Full".
	SupportedLinkModes  []string `json:"supported_link_modes,omitempty"`
	AdvertisedLinkModes []string `json:"advertised_link_modes,omitempty"`
	// MaxSupportedSpeedMbps is the fastest supported link mode, e.g. 40000.
	MaxSupportedSpeedMbps *int `json:"max_supported_speed_mbps"`
	// Module is the plugged transceiver or cable, from `ethtool -m`.
	Module *Module `json:"module"`
	// Stats from `ethtool -S`, by trimmed counter name.
	Stats map[string]int64 `json:"stats,omitempty"`
	// StatsDeltas hold `ethtool -S` counter increases over Snapshot.Sample's interval (gather
	// --sample: the second read under sample/), by trimmed counter name.
	StatsDeltas map[string]int64 `json:"stats_deltas,omitempty"`
	// Pause from `ethtool -a`.
	Pause *PauseParams `json:"pause"`
	// FEC from `ethtool --show-fec`: configured and active encodings.
	FEC *FECParams `json:"fec"`
	// ECN per priority from /sys/class/net/<if>/ecn/roce_{np,rp}/enable/N.
	ECN *ECNState `json:"ecn"`
	// QoS from mlnx_qos: PFC per priority and trust mode.
	QoS *QoSState `json:"qos"`
	// PCIAddress of the function behind the netdev (ethtool bus-info, sysfs device link).
	PCIAddress string `json:"pci_address,omitempty"`
	// NUMANode and LocalCPUList from /sys/class/net/<if>/device/.
	NUMANode     *int   `json:"numa_node"`
	LocalCPUList string `json:"local_cpulist,omitempty"`
	// LocalCPUs is LocalCPUList expanded.
	LocalCPUs []int `json:"local_cpus,omitempty"`
	// VFs are the SR-IOV virtual functions `ip link` lists under the PF ("vf 0 ...").
	VFs []NetdevVF `json:"vfs,omitempty"`
	// RDMADevice and RDMAPort name the RDMA port this netdev belongs to (ibdev2netdev, joins).
	RDMADevice string      `json:"rdma_device,omitempty"`
	RDMAPort   *int        `json:"rdma_port"`
	Evidence   EvidenceMap `json:"evidence,omitempty"`
}

// NetdevVF is one `vf N ...` line of `ip link show <pf>`.
type NetdevVF struct {
	// Index is the VF number N.
	Index int `json:"index"`
	// LinkAddress is the VF MAC (`MAC x` or `link/ether x`) or IPoIB address (`link/infiniband x`).
	LinkAddress string `json:"link_address,omitempty"`
	// NodeGUID and PortGUID as printed for IB VFs, e.g. "00:00:00:00:00:00:00:00" (all zero = unset).
	NodeGUID string `json:"node_guid,omitempty"`
	PortGUID string `json:"port_guid,omitempty"`
	// LinkState is auto, enable or disable.
	LinkState string `json:"link_state,omitempty"`
	// SpoofCheck and Trust from "spoof checking on|off" and "trust on|off".
	SpoofCheck *bool    `json:"spoof_check"`
	Trust      *bool    `json:"trust"`
	Evidence   Evidence `json:"evidence"`
}

// IPv6Address is one IPv6 address of a netdev.
type IPv6Address struct {
	// Address in CIDR form, e.g. "fe80::ba59:9f03:a:4ec1/64".
	Address string `json:"address"`
	// Scope is link, global, site or host.
	Scope string `json:"scope,omitempty"`
	// Flags such as "tentative", "dadfailed", "noprefixroute".
	Flags []string `json:"flags,omitempty"`
}

// Module is a pluggable transceiver or cable as `ethtool -m` decodes its EEPROM.
type Module struct {
	// Identifier is the SFF-8024 form factor name: "SFP", "QSFP", "QSFP+", "QSFP28", "QSFP-DD", "OSFP", "CMIS".
	Identifier string `json:"identifier,omitempty"`
	// IdentifierCode is the SFF-8024 byte, e.g. "0x11".
	IdentifierCode string `json:"identifier_code,omitempty"`
	// Connector as printed, e.g. "0x23 (No separable connector)".
	Connector string `json:"connector,omitempty"`
	// Compliance lists the transceiver compliance codes, e.g. "100G Ethernet: 100G Base-SR4 or 25GBase-SR".
	Compliance []string `json:"compliance,omitempty"`
	// NominalBitRateMbps from `BR, Nominal : 25500Mbps`.
	NominalBitRateMbps *int `json:"nominal_bit_rate_mbps"`
	// MaxSpeedGbps is the fastest Ethernet/IB rate the module declares (compliance codes, part number).
	MaxSpeedGbps *int `json:"max_speed_gbps"`
	// LengthM is the cable length in metres for copper/AOC assemblies.
	LengthM *float64 `json:"length_m"`
	// Vendor identity.
	VendorName string `json:"vendor_name,omitempty"`
	VendorPN   string `json:"vendor_pn,omitempty"`
	VendorSN   string `json:"vendor_sn,omitempty"`
	VendorRev  string `json:"vendor_rev,omitempty"`
	// TemperatureC is the module temperature from DOM.
	TemperatureC *float64 `json:"temperature_c"`
	// Alarms are DOM alarm and warning flags that are On, e.g. "Laser rx power low alarm (Channel 1)".
	Alarms []string `json:"alarms,omitempty"`
	// Unreadable holds ethtool's error when the EEPROM could not be read (e.g. "Input/output error");
	// a hex-dump-only output sets it to "hexdump only".
	Unreadable string      `json:"unreadable,omitempty"`
	Evidence   EvidenceMap `json:"evidence,omitempty"`
}

// PauseParams are global pause settings from `ethtool -a`.
type PauseParams struct {
	Autoneg *bool `json:"autoneg"`
	RX      *bool `json:"rx"`
	TX      *bool `json:"tx"`
}

// FECParams are from `ethtool --show-fec`.
type FECParams struct {
	Configured []string `json:"configured,omitempty"`
	Active     string   `json:"active,omitempty"`
}

// ECNState is DCQCN enablement per priority (0-7) for notification point and reaction point.
type ECNState struct {
	NPEnabled map[string]bool `json:"np_enabled,omitempty"`
	RPEnabled map[string]bool `json:"rp_enabled,omitempty"`
}

// QoSState is from mlnx_qos -i <if>.
type QoSState struct {
	// Trust is "pcp" or "dscp".
	Trust string `json:"trust,omitempty"`
	// PFCEnabled lists the priorities (0-7) with PFC enabled.
	PFCEnabled []int `json:"pfc_enabled"`
}
