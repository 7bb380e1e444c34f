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

// SMInfo is one sminfo answer.
type SMInfo struct {
	// Device and Port the query was sent from, when known (sminfo -C dev -P port).
	Device   string `json:"device,omitempty"`
	Port     *int   `json:"port"`
	SMLID    *int   `json:"sm_lid"`
	SMGUID   string `json:"sm_guid,omitempty"`
	Priority *int   `json:"priority"`
	// State is the SM state, e.g. "SMINFO_MASTER", "SMINFO_STANDBY".
	State    string   `json:"state,omitempty"`
	ActCount *int64   `json:"activity_count"`
	Evidence Evidence `json:"evidence"`
}

// PerfCounters are the PortCounters of one LID/port as perfquery prints them, keyed by sysfs-style
// names (symbol_error, port_rcv_errors, ...) so rules can treat them like sysfs counters.
type PerfCounters struct {
	Device   string           `json:"device,omitempty"`
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
	// Evidence is the first line that named the node.
	Evidence Evidence `json:"evidence"`
}

// ToolRefusal is a tool's own statement that it could not do its job.
type ToolRefusal struct {
	Tool     string   `json:"tool"`
	Message  string   `json:"message"`
	Evidence Evidence `json:"evidence"`
}
