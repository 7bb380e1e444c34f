package facts

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
