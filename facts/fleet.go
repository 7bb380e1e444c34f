package facts

// FleetSchemaVersion is the version of the Fleet document; bump it on incompatible changes.
const FleetSchemaVersion = 1

// Fleet is the fact document the fleet rules (rules/fleet/) evaluate: one summary per node that
// could be read, and the fabric as all nodes' captures saw it together. It is built after each
// node was diagnosed; a node's full Snapshot is dropped once its summary is taken.
type Fleet struct {
	SchemaVersion int `json:"schema_version"`
	// Nodes in the order of their host labels.
	Nodes []NodeSummary `json:"nodes"`
	// Fabric merges the fabric captures of every node (ibnetdiscover, iblinkinfo,
	// ibqueryerrors, perfquery, sminfo, ibdiagnet2) keyed by GUID and port; null when no node
	// had any.
	Fabric *FleetFabric `json:"fabric"`
	// Profile is the site intent from --profile; null without one.
	Profile *Profile `json:"profile"`
}

// NodeSummary is what fleet rules compare across nodes: one node's devices, ports, drivers and
// settings, each with the evidence line it was read from so a fleet diagnosis can quote it.
// A fact the node's snapshot did not hold is absent/null, never zero: nodes are compared only
// on what both showed.
type NodeSummary struct {
	// Host is the node's label in the fleet report (report.FleetNode.Host).
	Host string `json:"host"`
	// Available lists the fact groups the node's snapshot provided.
	Available []string `json:"available"`
}

// FleetFabric is the fabric seen from all nodes at once, keyed by GUID and port.
type FleetFabric struct{}
