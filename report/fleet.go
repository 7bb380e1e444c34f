package report

import "github.com/rdmadoctor/rdmadoctor/facts"

// FleetSchemaVersion is the version of the fleet report document (docs/fleet.md,
// docs/fleet-report.schema.json).
const FleetSchemaVersion = 1

// Node statuses of a fleet report: ok when the snapshot was read in full, partial when some of
// its inputs were not (fully) read (the node's Incomplete names them), unreadable when the
// snapshot could not be opened at all (Error says why; the node has no diagnoses), and no_rdma
// when it was read but nothing about RDMA could be evaluated (exit 3 of diagnose).
const (
	NodeOK         = "ok"
	NodePartial    = "partial"
	NodeUnreadable = "unreadable"
	NodeNoRDMA     = "no_rdma"
)

// Fleet is the result of one `rdmadoctor fleet` run over many nodes' snapshots (issue 12): each
// node's own diagnoses, the same diagnosis on many nodes grouped, and the diagnoses that only a
// comparison of nodes (or the merged fabric view) shows.
type Fleet struct {
	SchemaVersion int  `json:"schema_version"`
	Tool          Tool `json:"tool"`
	// Nodes in the order of their host labels; a node that could not be read is listed with
	// status unreadable, never dropped.
	Nodes []FleetNode `json:"nodes"`
	// Groups are the node diagnoses by rule id, worst severity first: one line per rule with
	// the nodes it fired on.
	Groups []Group `json:"groups"`
	// FleetDiagnoses are the findings of the fleet rules (firmware skew, rate below peers,
	// link errors on both ends of one cable, ...), ranked like node diagnoses.
	FleetDiagnoses []FleetDiagnosis `json:"fleet_diagnoses"`
	// Skipped are the fleet rules that were not evaluated, and why.
	Skipped []Skipped `json:"skipped"`
	// Fabric is the InfiniBand fabric as all snapshots saw it together, the view the fleet
	// rules judge (facts/fabricview, docs/fleet.md "Fabric"): each port with every host's view
	// of it, the links with both ends, the hosts' own ports mapped onto it, every sminfo
	// answer. Bounded by the view (fabricview.MaxPorts ports and links, MaxViews views per
	// port; dropped_ports and dropped_links count the rest). Null when no snapshot had a
	// fabric capture.
	Fabric *facts.FleetFabric `json:"fabric"`
}

// FleetNode is one snapshot of the fleet.
type FleetNode struct {
	// Host is the label the fleet report uses for this node: the snapshot's hostname, else
	// the snapshot's file or folder name; two snapshots of one host are both kept, the second
	// and later labelled "host#2", "host#3" in input order.
	Host string `json:"host"`
	// Hostname is the hostname the snapshot itself names ("" when it names none).
	Hostname string `json:"hostname,omitempty"`
	// Snapshot is the path the snapshot was read from, as given on the command line.
	Snapshot string `json:"snapshot"`
	// Status is one of NodeOK, NodePartial, NodeUnreadable, NodeNoRDMA.
	Status string `json:"status" jsonschema:"enum=ok,enum=partial,enum=unreadable,enum=no_rdma"`
	// Error says why an unreadable snapshot could not be read.
	Error string `json:"error,omitempty"`
	// Diagnoses, Skipped and Incomplete are those of the node's own report.
	Diagnoses  []Diagnosis `json:"diagnoses"`
	Skipped    []Skipped   `json:"skipped"`
	Incomplete []string    `json:"incomplete,omitempty"`
	// Worst is the most serious severity among Diagnoses ("" when there is none).
	Worst string `json:"worst,omitempty"`
	// Summary is what the fleet rules compare across nodes (null for an unreadable node).
	Summary *facts.NodeSummary `json:"summary,omitempty"`
}

// Group is one rule's node diagnoses across the fleet.
type Group struct {
	// ID is the rule id; Severity the worst severity it had on any node.
	ID       string `json:"id"`
	Title    string `json:"title,omitempty"`
	Severity string `json:"severity" jsonschema:"enum=critical,enum=error,enum=warning,enum=info"`
	// Nodes are the host labels it fired on, sorted; HostList is the same compressed the way
	// Slurm writes host lists ("node[001-037],gpu07").
	Nodes    []string `json:"nodes"`
	HostList string   `json:"host_list"`
	// Subjects counts the diagnoses (devices, ports) across those nodes.
	Subjects int `json:"subjects"`
	// Example is the message of one of them, for the table.
	Example string `json:"example,omitempty"`
}

// FleetDiagnosis is one finding of a fleet rule.
type FleetDiagnosis struct {
	Rank       int    `json:"rank"`
	ID         string `json:"id"`
	Title      string `json:"title"`
	Severity   string `json:"severity" jsonschema:"enum=critical,enum=error,enum=warning,enum=info"`
	Confidence string `json:"confidence" jsonschema:"enum=high,enum=medium,enum=low"`
	// Message states the proof in the operator's terms ("node017 runs 16.35.2000 while 39
	// nodes with PSID MT_0000000223 run 16.35.3006").
	Message string `json:"message"`
	// Nodes are the host labels the finding is about (the odd ones out first, when the rule
	// says which); HostList is the same compressed.
	Nodes    []string `json:"nodes"`
	HostList string   `json:"host_list"`
	// Subject is the device, port or fabric node it is about, when one.
	Subject  Subject         `json:"subject"`
	Evidence []FleetEvidence `json:"evidence"`
	// Fix commands with the subject filled in; Hosts says on which nodes to run them.
	Fix        []Fix    `json:"fix"`
	References []string `json:"references"`
}

// FleetEvidence is an input line of one node's snapshot.
type FleetEvidence struct {
	Host string `json:"host"`
	facts.Evidence
}
