package fleet

import (
	"sort"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// Groups gathers the node diagnoses by rule id: one Group per rule with the nodes it fired on
// (in the order of nodes, which Run sorts by host), their Slurm host list, the number of
// subjects (a diagnosis grouping several unused ports counts each) and the message of the
// first. Worst severity first, then the most nodes, then by id.
func Groups(nodes []report.FleetNode) []report.Group {
	idx := map[string]int{}
	groups := []report.Group{}
	for _, n := range nodes {
		for _, d := range n.Diagnoses {
			i, ok := idx[d.ID]
			if !ok {
				i = len(groups)
				idx[d.ID] = i
				groups = append(groups, report.Group{ID: d.ID, Title: d.Title, Severity: d.Severity, Example: d.Message})
			}
			g := &groups[i]
			if len(g.Nodes) == 0 || g.Nodes[len(g.Nodes)-1] != n.Host {
				g.Nodes = append(g.Nodes, n.Host)
			}
			g.Subjects += 1 + len(d.Also)
			if report.SeverityRank(d.Severity) < report.SeverityRank(g.Severity) {
				g.Severity, g.Example = d.Severity, d.Message
			}
		}
	}
	for i := range groups {
		groups[i].HostList = HostList(groups[i].Nodes)
	}
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := groups[i], groups[j]
		if ra, rb := report.SeverityRank(a.Severity), report.SeverityRank(b.Severity); ra != rb {
			return ra < rb
		}
		if len(a.Nodes) != len(b.Nodes) {
			return len(a.Nodes) > len(b.Nodes)
		}
		return a.ID < b.ID
	})
	return groups
}
