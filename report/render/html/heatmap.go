package html

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// heatmap is the nodes x rules grid: a row per node (or per set of nodes with the same
// findings, past MaxHeatRows nodes), a column per rule that fired anywhere (node rules and fleet
// rules), each cell coloured by the severity the rule had on that node, hatched when the rule
// could not be evaluated there.
type heatmap struct {
	Cols    []heatCol
	Rows    []heatRow
	PerNode bool
	// Notes say how rows were aggregated and what was cut.
	Notes []string
}

type heatCol struct {
	ID, Severity string
	// Fleet marks a fleet rule's column: its cells are the nodes the fleet diagnosis names.
	Fleet bool
	Nodes int
}

type heatRow struct {
	Label, Anchor, Title string
	// Count is the number of nodes of the row (1 per node).
	Count  int
	Status string
	Worst  string
	Cells  []heatCell
}

type heatCell struct {
	Class, Title string
}

// nodeCell is what one rule did on one node.
type nodeCell struct {
	severity string
	n        int
	skipped  string // why it was not evaluated, when it was not
}

func heat(f *report.Fleet, sorted []int, anchors map[int]string) heatmap {
	var h heatmap
	cols := map[string]*heatCol{}
	cells := make([]map[string]nodeCell, len(f.Nodes))
	mark := func(node int, key, id, sev string, fleet bool) {
		c := cols[key]
		if c == nil {
			c = &heatCol{ID: id, Severity: sev, Fleet: fleet}
			cols[key] = c
		}
		if report.SeverityRank(sev) < report.SeverityRank(c.Severity) {
			c.Severity = sev
		}
		nc := cells[node][key]
		if nc.n == 0 {
			c.Nodes++
		}
		if nc.n == 0 || report.SeverityRank(sev) < report.SeverityRank(nc.severity) {
			nc.severity = sev
		}
		nc.n++
		cells[node][key] = nc
	}
	byHost := map[string]int{}
	for i := range f.Nodes {
		cells[i] = map[string]nodeCell{}
		byHost[f.Nodes[i].Host] = i
		for _, d := range f.Nodes[i].Diagnoses {
			mark(i, d.ID, d.ID, d.Severity, false)
		}
	}
	for _, d := range f.FleetDiagnoses {
		for _, host := range d.Nodes {
			if i, ok := byHost[host]; ok {
				mark(i, "fleet:"+d.ID, d.ID, d.Severity, true)
			}
		}
	}
	keys := make([]string, 0, len(cols))
	for k := range cols {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool {
		ca, cb := cols[keys[a]], cols[keys[b]]
		if ra, rb := report.SeverityRank(ca.Severity), report.SeverityRank(cb.Severity); ra != rb {
			return ra < rb
		}
		if ca.Nodes != cb.Nodes {
			return ca.Nodes > cb.Nodes
		}
		return keys[a] < keys[b]
	})
	if len(keys) > MaxHeatCols {
		cut := keys[MaxHeatCols:]
		ids := make([]string, len(cut))
		for i, k := range cut {
			ids[i] = cols[k].ID
		}
		h.Notes = append(h.Notes, fmt.Sprintf("%d rules with the fewest, least severe findings have no column: %s.", len(cut), strings.Join(ids, ", ")))
		keys = keys[:MaxHeatCols]
	}
	for _, k := range keys {
		h.Cols = append(h.Cols, *cols[k])
	}
	// A node rule skipped on a node is unknown there, not clean.
	for i := range f.Nodes {
		for _, s := range f.Nodes[i].Skipped {
			if _, ok := cols[s.ID]; ok && cells[i][s.ID].n == 0 {
				cells[i][s.ID] = nodeCell{skipped: orDefault(s.Reason, "not evaluated")}
			}
		}
	}
	row := func(i int, label string) heatRow {
		n := &f.Nodes[i]
		r := heatRow{Label: label, Count: 1, Status: n.Status, Worst: n.Worst}
		for _, k := range keys {
			r.Cells = append(r.Cells, cellOf(n, cells[i][k], cols[k]))
		}
		return r
	}
	if len(f.Nodes) <= MaxHeatRows {
		h.PerNode = true
		for _, i := range sorted {
			r := row(i, f.Nodes[i].Host)
			r.Anchor = anchors[i]
			r.Title = f.Nodes[i].Host + ": " + statusText(&f.Nodes[i])
			for c := range r.Cells {
				if r.Cells[c].Title != "" {
					r.Cells[c].Title = f.Nodes[i].Host + " · " + r.Cells[c].Title
				}
			}
			h.Rows = append(h.Rows, r)
		}
		return h
	}
	h.aggregate(f, sorted, row)
	return h
}

// aggregate makes one row per set of nodes whose status and cells are the same, in the order
// of their worst node, and keeps MaxHeatRows of them.
func (h *heatmap) aggregate(f *report.Fleet, sorted []int, row func(int, string) heatRow) {
	type set struct {
		row   heatRow
		hosts []string
	}
	var sets []*set
	bySig := map[string]*set{}
	for _, i := range sorted {
		r := row(i, "")
		var sig strings.Builder
		sig.WriteString(r.Status)
		for _, c := range r.Cells {
			sig.WriteString("|" + c.Class)
		}
		s := bySig[sig.String()]
		if s == nil {
			s = &set{row: r}
			bySig[sig.String()] = s
			sets = append(sets, s)
		} else {
			s.row.Count++
		}
		s.hosts = append(s.hosts, f.Nodes[i].Host)
	}
	h.Notes = append(h.Notes, fmt.Sprintf("%d nodes are more than %d rows: each row is the nodes with the same findings (%d such sets), labelled with their first node and their count.", len(f.Nodes), MaxHeatRows, len(sets)))
	if len(sets) > MaxHeatRows {
		nodes := 0
		for _, s := range sets[MaxHeatRows:] {
			nodes += len(s.hosts)
		}
		h.Notes = append(h.Notes, fmt.Sprintf("%d less severe sets (%d nodes) have no row.", len(sets)-MaxHeatRows, nodes))
		sets = sets[:MaxHeatRows]
	}
	for _, s := range sets {
		r := s.row
		r.Label = s.hosts[0]
		if r.Count > 1 {
			r.Label = fmt.Sprintf("%s +%d", s.hosts[0], r.Count-1)
		}
		r.Title = fmt.Sprintf("%d nodes: %s", r.Count, members(s.hosts, 20))
		for c := range r.Cells {
			if r.Cells[c].Title != "" {
				r.Cells[c].Title = fmt.Sprintf("%d nodes · %s", r.Count, r.Cells[c].Title)
			}
		}
		h.Rows = append(h.Rows, r)
	}
}

func cellOf(n *report.FleetNode, c nodeCell, col *heatCol) heatCell {
	switch {
	case c.n > 0:
		t := col.ID + ": " + c.severity
		if c.n > 1 {
			t += fmt.Sprintf(" (%d)", c.n)
		}
		if col.Fleet {
			t = "fleet " + t
		}
		return heatCell{Class: "s-" + c.severity, Title: t}
	case c.skipped != "":
		return heatCell{Class: "unk", Title: col.ID + " not evaluated: " + c.skipped}
	case n.Status == report.NodeUnreadable:
		return heatCell{Class: "unk", Title: col.ID + " not evaluated: snapshot unreadable"}
	}
	return heatCell{}
}

// statusText is "critical, partial input" for a row's title.
func statusText(n *report.FleetNode) string {
	parts := []string{}
	if n.Worst != "" {
		parts = append(parts, "worst "+n.Worst)
	} else if n.Status == report.NodeOK {
		parts = append(parts, "no finding")
	}
	if n.Status != report.NodeOK {
		parts = append(parts, strings.ReplaceAll(n.Status, "_", " "))
	}
	return strings.Join(parts, ", ")
}
