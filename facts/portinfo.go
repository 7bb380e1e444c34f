package facts

// PortInfo is one PortInfo block that ibportstate printed ("# Port info: Lid 6 port 1" and its
// "Key:....value" lines): the port's link width and speed as supported, enabled and active,
// straight from the subnet management attribute (IBA PortInfo), so a link that trained below
// what both its configuration and its hardware allow can be told from one limited on purpose.
type PortInfo struct {
	// Device and Port are the local CA and port the query was sent from (ibportstate -C dev
	// -P port), when the file name gives them; not the port the block describes.
	Device string `json:"device,omitempty"`
	Port   *int   `json:"port"`
	// Title is the heading ibportstate printed above the block: "CA PortInfo", "CA/RT PortInfo",
	// "Initial CA/RT PortInfo", "After PortInfo set", "Switch PortInfo", "Peer PortInfo".
	Title string `json:"title,omitempty"`
	// Peer is set for the block of the port at the other end of the link (under "Peer PortInfo:").
	Peer bool `json:"peer,omitempty"`
	// Latest is set on the last block of the file about the queried port itself (not the peer):
	// its state after whatever the command changed.
	Latest bool `json:"latest,omitempty"`
	// LID and PortNumber are the port the block describes, from its "# Port info: Lid 6 port 1"
	// header (a CA port's own LID; a switch's LID and one of its port numbers).
	LID        *int `json:"lid"`
	PortNumber *int `json:"port_number"`
	// LinkState and PhysLinkState as printed: Down, Initialize, Armed, Active; Polling, LinkUp, Disabled ...
	LinkState     string `json:"link_state,omitempty"`
	PhysLinkState string `json:"phys_link_state,omitempty"`
	// WidthSupported and WidthEnabled are the widths in lanes ("1X or 4X" -> [1, 4]); WidthActive
	// the one the link trained to (LinkWidthActive "4X" -> 4).
	WidthSupported []int `json:"width_supported,omitempty"`
	WidthEnabled   []int `json:"width_enabled,omitempty"`
	WidthActive    *int  `json:"width_active"`
	// SpeedSupported, SpeedEnabled and SpeedActive are lane speed names (SDR, DDR, QDR, FDR10, FDR,
	// EDR, HDR, NDR, XDR) read from LinkSpeed* (2.5/5.0/10.0 Gbps), LinkSpeedExt* (14.0625 Gbps
	// and up: when LinkSpeedExtActive is set it is the active speed) and the Mellanox extended
	// PortInfo block's LinkSpeed* bit 0 (FDR10).
	SpeedSupported []string    `json:"speed_supported,omitempty"`
	SpeedEnabled   []string    `json:"speed_enabled,omitempty"`
	SpeedActive    string      `json:"speed_active,omitempty"`
	Evidence       EvidenceMap `json:"evidence,omitempty"`
}
