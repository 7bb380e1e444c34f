package html

import (
	"fmt"
	"html/template"
	"sort"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// view is what the template renders: the fleet report sorted, counted and cut to the limits.
type view struct {
	CSS template.CSS
	JS  template.JS

	Tool  report.Tool
	Nodes int
	// Tiles are the summary: nodes by worst severity, nodes without findings, unreadable nodes,
	// nodes without RDMA; PartialTile counts the partial ones (also counted in their tile).
	Tiles       []tile
	PartialTile tile
	Unreadable  []nodeNote
	Partial     []nodeNote

	Groups         []report.Group
	FleetDiagnoses []fleetDiagnosis
	FleetSkipped   []report.Skipped

	Heat  heatmap
	Plots []chart
	// Fabric is the fleet's fabric in brief (report.Digest); nil without one.
	Fabric *report.FabricDigest

	Detailed []nodeView
	Listed   []nodeView
	// Clean are the nodes read in full without any finding; CleanMore counts those not named.
	Clean     []nodeRef
	CleanMore int
	// NodesCut says what the node list left out ("" when nothing).
	NodesCut string
}

// tile is one box of the summary: a count and the first hosts it holds.
type tile struct {
	Class, Label, Help string
	Count              int
	Hosts              []nodeRef
	More               int
}

// nodeRef names a node and the anchor of its entry in the node list ("" when it has none).
type nodeRef struct {
	Host, Anchor string
}

// nodeNote is a node with a sentence about it (why it could not be read, which inputs were partial).
type nodeNote struct {
	nodeRef
	Text string
}

// fleetDiagnosis is a report.FleetDiagnosis with its evidence capped.
type fleetDiagnosis struct {
	report.FleetDiagnosis
	EvidenceMore int
}

// nodeView is one node of the node list.
type nodeView struct {
	nodeRef
	Snapshot, Status, Worst, Error string
	Incomplete                     []string
	Diagnoses                      []diagnosisView
	DiagnosesMore                  int
	Counts                         string
	Lead                           string
	Skipped                        int
	// Badge and BadgeClass head the node's line: its worst severity, else what its status says.
	Badge, BadgeClass string
}

// diagnosisView is one node diagnosis with its evidence capped.
type diagnosisView struct {
	report.Diagnosis
	EvidenceMore int
}

// order is the rank of a node in the summary and the lists: by worst severity, then the nodes
// without findings that could not be (fully) read, then those without RDMA, then the clean ones.
func order(n *report.FleetNode) int {
	if n.Worst != "" {
		return report.SeverityRank(n.Worst)
	}
	base := len(report.Severities)
	switch n.Status {
	case report.NodeUnreadable:
		return base
	case report.NodePartial:
		return base + 1
	case report.NodeNoRDMA:
		return base + 2
	}
	return base + 3
}

// worst is the node's worst severity: Worst, or the worst of its diagnoses when Worst was not set.
func worst(n *report.FleetNode) string {
	if n.Worst != "" {
		return n.Worst
	}
	w := ""
	for _, d := range n.Diagnoses {
		if w == "" || report.SeverityRank(d.Severity) < report.SeverityRank(w) {
			w = d.Severity
		}
	}
	return w
}

// sortedNodes returns the indexes of f.Nodes, worst first, then by number of diagnoses, then host.
func sortedNodes(nodes []report.FleetNode) []int {
	idx := make([]int, len(nodes))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		na, nb := &nodes[idx[a]], &nodes[idx[b]]
		if oa, ob := order(na), order(nb); oa != ob {
			return oa < ob
		}
		if len(na.Diagnoses) != len(nb.Diagnoses) {
			return len(na.Diagnoses) > len(nb.Diagnoses)
		}
		return na.Host < nb.Host
	})
	return idx
}

func anchor(i int) string { return "node-" + strconv.Itoa(i) }

func build(f *report.Fleet) *view {
	for i := range f.Nodes {
		f.Nodes[i].Worst = worst(&f.Nodes[i])
	}
	v := &view{Tool: f.Tool, Nodes: len(f.Nodes), Groups: f.Groups, FleetSkipped: f.Skipped}
	sorted := sortedNodes(f.Nodes)
	anchors := v.nodeList(f.Nodes, sorted)
	v.summary(f.Nodes, sorted, anchors)
	for _, d := range f.FleetDiagnoses {
		fd := fleetDiagnosis{FleetDiagnosis: d}
		if len(fd.Evidence) > MaxEvidence {
			fd.EvidenceMore = len(fd.Evidence) - MaxEvidence
			fd.Evidence = fd.Evidence[:MaxEvidence]
		}
		v.FleetDiagnoses = append(v.FleetDiagnoses, fd)
	}
	v.Heat = heat(f, sorted, anchors)
	v.Plots = plots(f)
	v.Fabric = report.Digest(f.Fabric)
	return v
}

// summary fills the tiles, and names the unreadable and partial nodes.
func (v *view) summary(nodes []report.FleetNode, sorted []int, anchors map[int]string) {
	tiles := map[string]*tile{}
	var keys []string
	add := func(key, label, help string) {
		tiles[key] = &tile{Class: key, Label: label, Help: help}
		keys = append(keys, key)
	}
	for _, s := range report.Severities {
		add(s, s, "nodes whose worst diagnosis is "+s)
	}
	add("unreadable", "unreadable", "snapshots that could not be opened: nothing is known of these nodes")
	add("no_rdma", "no RDMA", "snapshots read, but nothing about RDMA could be evaluated")
	add("clean", "no finding", "nodes read in full without any diagnosis")
	v.PartialTile = tile{Class: "partial", Label: "partial input", Help: "nodes some of whose inputs were not (fully) read: their results may be incomplete (also counted above)"}
	put := func(t *tile, ref nodeRef) {
		t.Count++
		if len(t.Hosts) < MaxTileHosts {
			t.Hosts = append(t.Hosts, ref)
		} else {
			t.More++
		}
	}
	for _, i := range sorted {
		n := &nodes[i]
		ref := nodeRef{Host: n.Host, Anchor: anchors[i]}
		switch {
		case n.Worst != "" && tiles[n.Worst] != nil:
			put(tiles[n.Worst], ref)
		case n.Status == report.NodeUnreadable:
			put(tiles["unreadable"], ref)
			v.Unreadable = append(v.Unreadable, nodeNote{ref, orDefault(n.Error, "no reason given")})
		case n.Status == report.NodeNoRDMA:
			put(tiles["no_rdma"], ref)
		case n.Status == report.NodePartial:
			// a partial node without findings is not clean: its tile is "partial input" alone
		default:
			tiles["clean"].Count++ // named in the node list, not here: they are not what the tile is read for
		}
		if n.Status == report.NodePartial {
			put(&v.PartialTile, ref)
			v.Partial = append(v.Partial, nodeNote{ref, partialText(n)})
		}
	}
	for _, k := range keys {
		v.Tiles = append(v.Tiles, *tiles[k])
	}
}

func partialText(n *report.FleetNode) string {
	if len(n.Incomplete) == 0 {
		return "some inputs were not fully read"
	}
	return "not (fully) read: " + members(n.Incomplete, 6)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// nodeList fills Detailed, Listed and Clean, and returns the anchor of each node that has an entry.
func (v *view) nodeList(nodes []report.FleetNode, sorted []int) map[int]string {
	anchors := map[int]string{}
	listedOut := 0
	for _, i := range sorted {
		n := &nodes[i]
		ref := nodeRef{Host: n.Host, Anchor: anchor(i)}
		if len(n.Diagnoses) == 0 && n.Status == report.NodeOK {
			if len(v.Clean) < MaxCleanHosts {
				v.Clean = append(v.Clean, nodeRef{Host: n.Host})
			} else {
				v.CleanMore++
			}
			continue
		}
		switch {
		case len(v.Detailed) < MaxDetailedNodes:
			v.Detailed = append(v.Detailed, nodeDetails(n, ref, true))
		case len(v.Listed) < MaxListedNodes:
			v.Listed = append(v.Listed, nodeDetails(n, ref, false))
		default:
			listedOut++
			continue
		}
		anchors[i] = ref.Anchor
	}
	var cut []string
	if len(v.Listed) > 0 {
		cut = append(cut, fmt.Sprintf("the %d worst nodes are listed with their evidence and fixes, the next %d with their lead diagnosis only", len(v.Detailed), len(v.Listed)))
	}
	if listedOut > 0 {
		cut = append(cut, fmt.Sprintf("%d less severe nodes with findings are not listed (the JSON report has them all)", listedOut))
	}
	if v.CleanMore > 0 {
		cut = append(cut, fmt.Sprintf("%d nodes without findings are counted but not named", v.CleanMore))
	}
	if len(cut) > 0 {
		v.NodesCut = strings.Join(cut, "; ") + "."
	}
	return anchors
}

func nodeDetails(n *report.FleetNode, ref nodeRef, full bool) nodeView {
	nv := nodeView{nodeRef: ref, Snapshot: n.Snapshot, Status: n.Status, Worst: n.Worst, Error: n.Error,
		Incomplete: n.Incomplete, Skipped: len(n.Skipped), Counts: counts(n.Diagnoses)}
	nv.Badge, nv.BadgeClass = badge(n)
	if len(n.Diagnoses) > 0 {
		d := n.Diagnoses[0]
		nv.Lead = d.ID + " on " + d.Subject.String() + ": " + d.Message
	}
	if !full {
		return nv
	}
	for j, d := range n.Diagnoses {
		if j == MaxNodeDiagnoses {
			nv.DiagnosesMore = len(n.Diagnoses) - j
			break
		}
		dv := diagnosisView{Diagnosis: d}
		if len(dv.Evidence) > MaxEvidence {
			dv.EvidenceMore = len(dv.Evidence) - MaxEvidence
			dv.Evidence = dv.Evidence[:MaxEvidence]
		}
		nv.Diagnoses = append(nv.Diagnoses, dv)
	}
	return nv
}

// counts is "2 critical, 1 warning".
func counts(ds []report.Diagnosis) string {
	n := map[string]int{}
	for _, d := range ds {
		n[d.Severity]++
	}
	var parts []string
	for _, s := range report.Severities {
		if n[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[s], s))
		}
	}
	return strings.Join(parts, ", ")
}

// badge is the label and class of a node's line: "critical" .. "info", else "unreadable",
// "no RDMA", "partial" (a node partly read without findings is not clean) or "no finding".
func badge(n *report.FleetNode) (string, string) {
	switch {
	case n.Worst != "":
		return n.Worst, "s-" + n.Worst
	case n.Status == report.NodeUnreadable:
		return "unreadable", "x-unreadable"
	case n.Status == report.NodeNoRDMA:
		return "no RDMA", "x-no_rdma"
	case n.Status == report.NodePartial:
		return "partial", "x-partial"
	}
	return "no finding", "s-none"
}
