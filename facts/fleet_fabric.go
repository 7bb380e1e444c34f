package facts

// FleetFabric is the fabric seen from all nodes at once (facts/fabricview): the fabric ports of
// every node's iblinkinfo, ibqueryerrors, perfquery and ibdiagnet2 captures merged by identity,
// the links between them with both ends, each host's own HCA ports mapped to the ports they are
// cabled to, and every host's sminfo answers. Two records are one port only when they name the
// same GUID and port number (a node GUID, or a CA's port GUID), or, inside one capture file,
// the same LID and port (a subnet's LIDs are unique); a node description is never an identity.
// Every fact keeps the host and the line it was read from (a host's own ports, Hosts, by the
// host they are listed under). Lists are sorted.
type FleetFabric struct {
	// Nodes are the fabric's switches and CAs by node GUID.
	Nodes []FleetFabricNode `json:"nodes"`
	// Ports by ID (node GUID or, when no capture named it, port GUID, then port number).
	Ports []FleetFabricPort `json:"ports"`
	// Links are the cables the captures showed, each with both ends.
	Links []FleetLink `json:"links"`
	// Hosts are the fleet's nodes that had InfiniBand ports or fabric captures, by host label.
	Hosts []FabricHost `json:"hosts"`
	// SMViews are every sminfo answer of every host, by host, device and port.
	SMViews []FabricSMView `json:"sm_views"`
	// DroppedPorts counts port records not kept because the view held MaxPorts ports already;
	// DroppedLinks likewise for links. Non-zero means the view is incomplete.
	DroppedPorts int `json:"dropped_ports"`
	DroppedLinks int `json:"dropped_links"`
}

// PortErrorCounters are the link and receive error counters of a port (InfiniBand
// PortCounters, by sysfs counters/ name) worth comparing across nodes and showing in a fleet's
// fabric: what the node summaries keep and the human fleet reports list, sorted.
var PortErrorCounters = []string{
	"excessive_buffer_overrun_errors",
	"link_downed",
	"link_error_recovery",
	"local_link_integrity_errors",
	"port_rcv_errors",
	"port_xmit_discards",
	"symbol_error",
}

// FabricEvidence is an input line of one host's snapshot: facts.Evidence with the host (the
// JSON shape of report.FleetEvidence: host, source, path, line, text).
type FabricEvidence struct {
	// Host is the node's label in the fleet report.
	Host   string `json:"host"`
	Source string `json:"source"`
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Text   string `json:"text"`
}

// FleetFabricNode is one switch or CA of the fabric.
type FleetFabricNode struct {
	// GUID is the node GUID, 0x + 16 hex digits.
	GUID string `json:"guid"`
	// Type is "Switch", "CA" or "Router"; empty when no capture said.
	Type string `json:"type,omitempty"`
	// Description is the node description of the first host (by label) whose captures named it.
	Description string `json:"description,omitempty"`
	// LID of the node (a switch's port 0) as ibnetdiscover or ibdiagnet2 saw it.
	LID *int `json:"lid"`
	// Ports is the node's number of ports (ibnetdiscover "ports N", db_csv NumPorts).
	Ports *int `json:"ports"`
	// DeviceID, PSID and FirmwareVersion as ibdiagnet2's db_csv NODES/NODES_INFO have them.
	DeviceID        *int   `json:"device_id"`
	PSID            string `json:"psid,omitempty"`
	FirmwareVersion string `json:"firmware_version,omitempty"`
	// SeenBy is one line per host that named the node.
	SeenBy []FabricEvidence `json:"seen_by"`
}

// FleetFabricPort is one port of a switch or CA, with each host's view of it.
type FleetFabricPort struct {
	// ID is "<GUID>/<port>": the node GUID when any record named it, else the CA's port GUID.
	ID string `json:"id"`
	// NodeGUID and PortGUID (0x + 16 hex digits) as the records named them (a switch's ports
	// have no port GUID of their own).
	NodeGUID string `json:"node_guid,omitempty"`
	PortGUID string `json:"port_guid,omitempty"`
	Port     int    `json:"port"`
	// NodeType ("Switch", "CA"), NodeDescription, Label (the switch's front-panel name,
	// net_dump "1/1/1") and LID, from the first view that had each.
	NodeType        string `json:"node_type,omitempty"`
	NodeDescription string `json:"node_description,omitempty"`
	Label           string `json:"label,omitempty"`
	LID             *int   `json:"lid"`
	// Subnet is the ID of the first port of the connected part of the fabric this port is in
	// (ports joined by links, a switch's ports with each other); a port without a link is its
	// own.
	Subnet string `json:"subnet"`
	// Hosts are the hosts whose own HCA port this is (ibstat/sysfs GUID = the port's GUID).
	Hosts []string `json:"hosts,omitempty"`
	// Views are the records of the port, one per host and capture, sorted by host and path.
	Views []FabricPortView `json:"views"`
	// ViewsDropped counts views not kept over MaxViews (the hosts with the lowest labels are kept).
	ViewsDropped int `json:"views_dropped,omitempty"`
}

// FabricPortView is one host's record of a fabric port: an iblinkinfo line, an ibqueryerrors
// line, a perfquery answer, or an ibdiagnet2 port (net_dump, pm, db_csv merged).
type FabricPortView struct {
	Host string `json:"host"`
	// Sources are the spec names of the inputs the record came from, sorted.
	Sources []string `json:"sources"`
	// State and PhysicalState in ibstat's words (Active, Down; LinkUp, Polling).
	State         string `json:"state,omitempty"`
	PhysicalState string `json:"physical_state,omitempty"`
	// WidthLanes is the active width; LaneSpeedGbps the signalling rate per lane (iblinkinfo
	// "10.0 Gbps", net_dump LSA).
	WidthLanes    *int     `json:"width_lanes"`
	LaneSpeedGbps *float64 `json:"lane_speed_gbps"`
	// The far end as this record printed it (iblinkinfo peer LID/port/description, net_dump
	// Neighbor Guid/N#/NLID/description): for people; the link itself is in FleetFabric.Links.
	PeerGUID        string `json:"peer_guid,omitempty"`
	PeerLabel       string `json:"peer_label,omitempty"`
	PeerLID         *int   `json:"peer_lid"`
	PeerPort        *int   `json:"peer_port"`
	PeerDescription string `json:"peer_description,omitempty"`
	// Counters are PortCounters by sysfs name (symbol_error, port_rcv_errors, ...) since they
	// were last cleared; CounterDeltas their increase over ibdiagnet's sample. A counter the
	// tool did not print is absent (ibqueryerrors prints only those over its threshold).
	Counters      map[string]int64 `json:"counters,omitempty"`
	CounterDeltas map[string]int64 `json:"counter_deltas,omitempty"`
	// Evidence by field name, as in the node's snapshot ("state", "counters.symbol_error").
	Evidence map[string]FabricEvidence `json:"evidence"`
}

// FleetLink is one cable: the IDs of the ports at both ends (FleetFabricPort.ID), and the lines
// of each host's captures that tie them.
type FleetLink struct {
	// A is the end with the lower port ID.
	A string `json:"a"`
	B string `json:"b"`
	// Evidence are the lines that name both ends (an iblinkinfo line of either end, a net_dump
	// line), by host and path.
	Evidence []FabricEvidence `json:"evidence"`
}

// FabricHost is one fleet node as the fabric sees it.
type FabricHost struct {
	Host string `json:"host"`
	// Inputs are the fabric inputs the host's snapshot held (spec names: iblinkinfo, sminfo,
	// perfquery, ibqueryerrors, ibnetdiscover, ibdiagnet2_net_dump, ...), sorted.
	Inputs []string `json:"inputs"`
	// Ports are the host's own InfiniBand ports (ibstat, sysfs, ibv_devinfo), by device and port.
	Ports []FabricHostPort `json:"ports"`
	// SMRefusals are sminfo's own errors on this host (no SM answered, "can't open MAD port").
	SMRefusals []FabricEvidence `json:"sm_refusals,omitempty"`
}

// FabricHostPort is one of a host's own ports, mapped to the fabric on positive evidence only.
type FabricHostPort struct {
	Device string `json:"device"`
	Port   int    `json:"port"`
	// NodeGUID and PortGUID of the port as the host's own tools read them.
	NodeGUID      string   `json:"node_guid,omitempty"`
	PortGUID      string   `json:"port_guid,omitempty"`
	LinkLayer     string   `json:"link_layer,omitempty"`
	State         string   `json:"state,omitempty"`
	PhysicalState string   `json:"physical_state,omitempty"`
	LID           *int     `json:"lid"`
	SMLID         *int     `json:"sm_lid"`
	RateGbps      *float64 `json:"rate_gbps"`
	// FabricPort is the ID of the fabric port with this port's GUID and number; empty when no
	// capture of any host showed it.
	FabricPort string `json:"fabric_port,omitempty"`
	// Subnet is the fabric port's Subnet.
	Subnet string `json:"subnet,omitempty"`
	// Peer is the ID of the port at the other end of its cable (a switch port, or a CA's port
	// back to back), when some capture showed the link; empty otherwise.
	Peer string `json:"peer,omitempty"`
	// Evidence are the host's lines for port_guid, node_guid, state and physical_state, without
	// a host: they are FabricHost.Host's (a rule quoting one adds it, as it does for a node
	// summary's). Equal ports of many hosts are then one value (facts/fabricview shares them).
	Evidence EvidenceMap `json:"evidence"`
}

// FabricSMView is one sminfo answer of one host: the master (or other) SM its port reached.
type FabricSMView struct {
	Host string `json:"host"`
	// Device and Port the query was sent from (sminfo -C/-P), when known.
	Device string `json:"device,omitempty"`
	Port   *int   `json:"port"`
	// Subnet of the local port the query was sent from (or of the SM's own port, when the
	// fabric has it); empty when neither is known.
	Subnet string `json:"subnet,omitempty"`
	// SMGUID is the SM's port GUID; SMLID, Priority (0-15) and State ("SMINFO_MASTER",
	// "SMINFO_STANDBY", ...) as sminfo printed them.
	SMGUID        string `json:"sm_guid,omitempty"`
	SMLID         *int   `json:"sm_lid"`
	Priority      *int   `json:"priority"`
	State         string `json:"state,omitempty"`
	ActivityCount *int64 `json:"activity_count"`
	// Tool is "ibdiagnet2" for an SM of ibdiagnet2.sm (a sweep of the whole fabric, sent from
	// no port the report names), empty for an sminfo answer.
	Tool     string         `json:"tool,omitempty"`
	Evidence FabricEvidence `json:"evidence"`
}
