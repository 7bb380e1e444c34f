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
