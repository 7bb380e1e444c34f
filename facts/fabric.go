package facts

// Fabric holds what this node's tools saw of the InfiniBand fabric.
type Fabric struct {
	// Links from iblinkinfo: one per connected (or down) switch/HCA port.
	Links []IBLink `json:"links,omitempty"`
	// SMInfo from sminfo.
	SMInfo []SMInfo `json:"sminfo,omitempty"`
	// PerfCounters from perfquery / ibqueryerrors, per LID and port.
	PerfCounters []PerfCounters `json:"perf_counters,omitempty"`
	// Nodes from ibnetdiscover / ibhosts / ibswitches / ibnodes.
	Nodes []FabricNode `json:"nodes,omitempty"`
	// Topology are the port lines of an ibnetdiscover topology (ibnetdiscover, ibdiagnet2.ibnetdiscover):
	// which port of which node is cabled to which port of another.
	Topology []TopologyLink `json:"topology,omitempty"`
	// Ports are switch and CA ports as a fabric-wide tool saw them (ibdiagnet2's net_dump, pm
	// and db_csv), merged by node GUID and port number (or port GUID and port number).
	Ports []FabricPort `json:"ports,omitempty"`
	// Diagnostics are a fabric tool's own warnings and errors (ibdiagnet2 db_csv WARNINGS_* and
	// ERRORS_* sections).
	Diagnostics []FabricDiagnostic `json:"diagnostics,omitempty"`
	// Switches are switch chassis health reports (ibswinfo), one per switch queried.
	Switches []SwitchHealth `json:"switches,omitempty"`
	// Refusals are the tools' own errors (e.g. perfquery "client_register failed" on RoCE ports).
	Refusals []ToolRefusal `json:"refusals,omitempty"`
}

// IBLink is one port line of iblinkinfo.
type IBLink struct {
	// NodeGUID and NodeDescription of the node the port belongs to (the switch or CA heading).
	NodeGUID        string `json:"node_guid,omitempty"`
	NodeDescription string `json:"node_description,omitempty"`
	// PortGUID is the GUID iblinkinfo prints at the start of a CA's port line (0x + 16 hex digits).
	PortGUID string `json:"port_guid,omitempty"`
	LID      *int   `json:"lid"`
	Port     int    `json:"port"`
	// WidthLanes, SpeedGbps (signalling, e.g. 10.0, 14.0625) and State/PhysicalState of the link.
	WidthLanes    *int     `json:"width_lanes"`
	SpeedGbps     *float64 `json:"speed_gbps"`
	State         string   `json:"state,omitempty"`
	PhysicalState string   `json:"physical_state,omitempty"`
	// Peer at the other end, when linked.
	PeerLID         *int   `json:"peer_lid"`
	PeerPort        *int   `json:"peer_port"`
	PeerDescription string `json:"peer_description,omitempty"`
	// CouldBe is iblinkinfo's hint that both ends support more, e.g. "Could be 4X" or "Could be 14.0625 Gbps".
	CouldBe  string   `json:"could_be,omitempty"`
	Evidence Evidence `json:"evidence"`
}

// TopologyLink is one port line of an ibnetdiscover topology: port Port of the node whose block
// it is in (a "Switch N "S-<guid>"" or "Ca N "H-<guid>"" heading), cabled to port PeerPort of
// the node PeerNodeGUID, e.g.
//
//	[1](1/1/1) "H-5c25730300e6706e"[1](5c25730300e6706e)      # "node01 mlx5_8" lid 164 4xNDR
type TopologyLink struct {
	// NodeGUID and NodeType ("Switch", "CA", "Router") of the block's node; Port its port.
	NodeGUID string `json:"node_guid"`
	NodeType string `json:"node_type,omitempty"`
	Port     int    `json:"port"`
	// PortGUID of a CA's port (the last parentheses after a CA block's port number); Label of
	// a switch's port ("1/1/1", the parentheses after its number, when the switch has labels).
	PortGUID string `json:"port_guid,omitempty"`
	Label    string `json:"label,omitempty"`
	// LID of a CA block's port ("# lid 164 lmc 0"); a switch's LID is its heading's.
	LID *int `json:"lid"`
	// The peer: its node GUID, type and port, a CA's port GUID, its description and LID.
	PeerNodeGUID    string `json:"peer_node_guid"`
	PeerType        string `json:"peer_type,omitempty"`
	PeerPort        int    `json:"peer_port"`
	PeerPortGUID    string `json:"peer_port_guid,omitempty"`
	PeerDescription string `json:"peer_description,omitempty"`
	PeerLID         *int   `json:"peer_lid"`
	// Speed is the link's active width and speed as printed, e.g. "4xNDR".
	Speed    string   `json:"speed,omitempty"`
	Evidence Evidence `json:"evidence"`
}

// SMInfo is one subnet manager as sminfo answered from a port of this host, or as a fabric-wide
// tool (ibdiagnet2.sm) listed it.
type SMInfo struct {
	// Device and Port the query was sent from, when known (sminfo -C dev -P port).
	Device   string `json:"device,omitempty"`
	Port     *int   `json:"port"`
	SMLID    *int   `json:"sm_lid"`
	SMGUID   string `json:"sm_guid,omitempty"`
	Priority *int   `json:"priority"`
	// State is the SM state, e.g. "SMINFO_MASTER", "SMINFO_STANDBY".
	State    string `json:"state,omitempty"`
	ActCount *int64 `json:"activity_count"`
	// Tool is the fabric-wide tool that reported the SM when it was not an sminfo query from a
	// port of this host: "ibdiagnet2" (ibdiagnet2.sm, from a sweep of the whole fabric run from
	// a port its report does not name). Empty for sminfo.
	Tool     string   `json:"tool,omitempty"`
	Evidence Evidence `json:"evidence"`
}

// PerfCounters are the PortCounters of one LID/port as perfquery prints them, keyed by sysfs-style
// names (symbol_error, port_rcv_errors, ...) so rules can treat them like sysfs counters.
type PerfCounters struct {
	// Device is the local CA the query was sent from (perfquery -C), when the file name says.
	Device string `json:"device,omitempty"`
	// Local is true when the command line named no target (perfquery [-C ca] [-P port] reads the
	// local port), false when it named a remote LID or GUID, and null when the capture carries
	// no command line: only a true Local makes these the local port's counters.
	Local *bool `json:"local"`
	// GUID is the port GUID a `perfquery -G <guid>` query named, 0x + 16 hex digits.
	GUID     string           `json:"guid,omitempty"`
	LID      *int             `json:"lid"`
	Port     *int             `json:"port"`
	Counters map[string]int64 `json:"counters"`
	Evidence EvidenceMap      `json:"evidence,omitempty"`
}

// FabricNode is one node from ibnetdiscover/ibhosts/ibswitches.
type FabricNode struct {
	// Type is "CA", "Switch" or "Router".
	Type        string `json:"type"`
	GUID        string `json:"guid,omitempty"`
	Description string `json:"description,omitempty"`
	Ports       *int   `json:"ports"`
	LID         *int   `json:"lid"`
	// Speeds seen on its links (e.g. "4xQDR", "4xHDR").
	Speeds []string `json:"speeds,omitempty"`
	// DeviceID is the PCI device id of its ASIC (ibdiagnet2 db_csv NODES DeviceID: 54002 =
	// 0xd2f2 Quantum-2, 4129 = 0x1021 ConnectX-7); PSID and FirmwareVersion its firmware image
	// and version (db_csv NODES_INFO FWInfo_PSID and FWInfo_Extended_Major.Minor.SubMinor,
	// e.g. "31.2012.1024").
	DeviceID        *int   `json:"device_id"`
	PSID            string `json:"psid,omitempty"`
	FirmwareVersion string `json:"firmware_version,omitempty"`
	// FieldEvidence are the lines of the fields above ("device_id", "firmware_version").
	FieldEvidence EvidenceMap `json:"field_evidence,omitempty"`
	// Evidence is the first line that named the node.
	Evidence Evidence `json:"evidence"`
}

// ToolRefusal is a tool's own statement that it could not do its job.
type ToolRefusal struct {
	Tool     string   `json:"tool"`
	Message  string   `json:"message"`
	Evidence Evidence `json:"evidence"`
}

// SwitchHealth is one switch's inventory and chassis health as ibswinfo
// (github.com/stanford-rc/ibswinfo) read them in band from an unmanaged switch's registers.
type SwitchHealth struct {
	// Target is the -d argument of the run (lid-44, SW_MT54000_...), from the file name; empty
	// when the capture's name does not say.
	Target string `json:"target,omitempty"`
	// NodeDescription is the line between the "=====" rules (the switch's node description).
	NodeDescription string `json:"node_description,omitempty"`
	// GUID is the switch's node GUID ("GUID | 0x1c34da0300010540"), 0x + 16 hex digits.
	GUID            string `json:"guid,omitempty"`
	PartNumber      string `json:"part_number,omitempty"`
	ProductName     string `json:"product_name,omitempty"`
	PSID            string `json:"psid,omitempty"`
	FirmwareVersion string `json:"firmware_version,omitempty"`
	// UptimeSeconds from "uptime (d-h:m:s) | 160d-10:38:53" or "uptime (sec) | 16982312".
	UptimeSeconds *int64 `json:"uptime_seconds"`
	// TemperatureC and MaxTemperatureC are the ASIC's current and highest temperature (Celsius);
	// WarnLowC/WarnHighC its warning thresholds ("warn threshold (C) | 95/105 (low/high)",
	// printed by ibswinfo since 2025-04).
	TemperatureC    *int `json:"temperature_c"`
	MaxTemperatureC *int `json:"max_temperature_c"`
	WarnLowC        *int `json:"warn_low_c"`
	WarnHighC       *int `json:"warn_high_c"`
	// Statuses are the OK/ERROR words ibswinfo prints, by its own `-o status` names.
	Statuses []SwitchStatus `json:"statuses,omitempty"`
	// FanRPM are the fan tachometers, "fan#1 (rpm) | 8493", by fan number.
	FanRPM   map[string]int `json:"fan_rpm,omitempty"`
	Evidence EvidenceMap    `json:"evidence,omitempty"`
}

// SwitchStatus is one status word of ibswinfo.
type SwitchStatus struct {
	// Name is ibswinfo's `-o status` key: "psu0.status" (PSU present), "psu0.dc" (DC power),
	// "psu0.fan" (the PSU's fan), "fans" (the fan trays: FORE fan_under_limit/fan_over_limit).
	Name string `json:"name"`
	// Value is "OK" or "ERROR".
	Value    string   `json:"value"`
	Evidence Evidence `json:"evidence"`
}

// FabricPort is one port of a switch or CA as a fabric-wide tool saw it (ibdiagnet2).
type FabricPort struct {
	// NodeGUID, NodeDescription and NodeType ("Switch", "CA", "Router") of the node the port
	// belongs to; PortGUID the port's own GUID (CA ports; a switch's ports share the switch's).
	NodeGUID        string `json:"node_guid,omitempty"`
	NodeDescription string `json:"node_description,omitempty"`
	NodeType        string `json:"node_type,omitempty"`
	PortGUID        string `json:"port_guid,omitempty"`
	// Port is the port number (net_dump "IB#", pm "Port=", db_csv PortNum); Label the switch's
	// front-panel name for it (net_dump "#": "1/1/1" ASIC/cage/port on Quantum-2, "1" or "1/2"
	// on Quantum).
	Port  int    `json:"port"`
	Label string `json:"label,omitempty"`
	LID   *int   `json:"lid"`
	// State and PhysicalState in ibstat's words (net_dump "ACT", "LINK UP" -> "Active", "LinkUp").
	State         string `json:"state,omitempty"`
	PhysicalState string `json:"physical_state,omitempty"`
	// WidthLanes is the active width (net_dump LWA "4x"); SupportedWidths the widths the port
	// supports (db_csv PORTS LinkWidthSup bits: 1 1x, 2 4x, 4 8x, 8 12x, 16 2x).
	WidthLanes      *int  `json:"width_lanes"`
	SupportedWidths []int `json:"supported_widths,omitempty"`
	// EnabledWidths are the widths the port is allowed to train at (db_csv PORTS LinkWidthEn,
	// same bits): a split (2x) port of a Quantum switch has 2x alone.
	EnabledWidths []int `json:"enabled_widths,omitempty"`
	// LaneSpeedGbps is the active speed per lane as net_dump prints it (LSA: 2.5 SDR, 5 DDR,
	// 10 QDR/FDR10, 14 FDR, 25 EDR, 50 HDR, 100 NDR).
	LaneSpeedGbps *float64 `json:"lane_speed_gbps"`
	FEC           string   `json:"fec,omitempty"`
	// The peer at the other end of the link (net_dump Neighbor Guid, N#, NLID, Neighbor
	// Description): PeerLabel is the peer's port as net_dump names it ("40", "B184D0F0/0/0/1").
	PeerGUID        string `json:"peer_guid,omitempty"`
	PeerLabel       string `json:"peer_label,omitempty"`
	PeerLID         *int   `json:"peer_lid"`
	PeerDescription string `json:"peer_description,omitempty"`
	// Counters are the port's PortCounters since they were last cleared (ibdiagnet2.pm), by
	// sysfs name (symbol_error, link_downed, port_rcv_errors, port_xmit_discards, port_xmit_wait,
	// ...); a counter ibdiagnet printed as NA is absent. CounterDeltas are their increase between
	// ibdiagnet's two reads of one run (db_csv PM_DELTA; its log says "Going to sleep for N
	// seconds until next counters sample", 1 s by default).
	Counters      map[string]int64 `json:"counters,omitempty"`
	CounterDeltas map[string]int64 `json:"counter_deltas,omitempty"`
	Evidence      EvidenceMap      `json:"evidence,omitempty"`
}

// FabricDiagnostic is one warning or error a fabric tool reported (ibdiagnet2 db_csv
// WARNINGS_<CHECK> / ERRORS_<CHECK> rows: Scope,NodeGUID,PortGUID,PortNumber,EventName,Summary).
type FabricDiagnostic struct {
	// Level is "warning" or "error"; Check the section's check, e.g. "FW_CHECK".
	Level    string `json:"level"`
	Check    string `json:"check"`
	Scope    string `json:"scope,omitempty"`
	NodeGUID string `json:"node_guid,omitempty"`
	PortGUID string `json:"port_guid,omitempty"`
	Port     *int   `json:"port"`
	// Event is ibdiagnet's event name, e.g. NODE_WRONG_FW_VERSION, NODE_DUPLICATED_NODE_DESC.
	Event    string   `json:"event"`
	Summary  string   `json:"summary,omitempty"`
	Evidence Evidence `json:"evidence"`
}
