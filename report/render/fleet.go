package render

import (
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/internal/rewrite"
	"github.com/rdmadoctor/rdmadoctor/internal/visible"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// FleetFormats are the names `fleet --format` accepts here; html is registered by the command
// (report/render/html).
var FleetFormats = []string{"table", "json", "yaml", "markdown"}

// WriteFleet renders a fleet report in the named format.
func WriteFleet(w io.Writer, format string, f *report.Fleet, opts Options) error {
	switch format {
	case "table":
		return FleetTable(w, f, opts)
	case "json":
		return FleetJSON(w, f)
	case "yaml":
		return YAMLOf(w, f)
	case "markdown":
		return FleetMarkdown(w, f)
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(FleetFormats, ", "))
}

// escapedFleet is escaped for a fleet report: a copy whose every string has its control
// characters made visible, for the table and Markdown views.
func escapedFleet(f *report.Fleet) *report.Fleet {
	out := *f
	rewrite.StringsBy(reflect.ValueOf(&out).Elem(), visible.Escape, commandFields)
	return &out
}

// worstNodesShown is how many of the worst nodes the human formats list.
const worstNodesShown = 10

// worstNodes are the nodes with diagnoses, most serious first (worst severity, then the most
// diagnoses, then host order), at most n.
func worstNodes(f *report.Fleet, n int) []report.FleetNode {
	var out []report.FleetNode
	for _, node := range f.Nodes {
		if len(node.Diagnoses) > 0 {
			out = append(out, node)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ra, rb := report.SeverityRank(a.Worst), report.SeverityRank(b.Worst); ra != rb {
			return ra < rb
		}
		return len(a.Diagnoses) > len(b.Diagnoses)
	})
	return out[:min(n, len(out))]
}

// nodesWith returns the nodes of status st.
func nodesWith(f *report.Fleet, st string) []report.FleetNode {
	var out []report.FleetNode
	for _, n := range f.Nodes {
		if n.Status == st {
			out = append(out, n)
		}
	}
	return out
}

// fleetSummary is the headline: "40 nodes: 37 ok, 1 partial, 1 unreadable, 1 no RDMA; 3
// critical, 2 warning (worst severity per node)".
func fleetSummary(f *report.Fleet) string {
	status := map[string]int{}
	worst := map[string]int{}
	clean := 0
	for _, n := range f.Nodes {
		status[n.Status]++
		if n.Worst != "" {
			worst[n.Worst]++
		} else if n.Status == report.NodeOK || n.Status == report.NodePartial {
			clean++
		}
	}
	var parts []string
	for _, st := range []string{report.NodeOK, report.NodePartial, report.NodeUnreadable, report.NodeNoRDMA} {
		if status[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", status[st], strings.ReplaceAll(st, "_", " ")))
		}
	}
	s := plural(len(f.Nodes), "node", "nodes")
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	var sev []string
	for _, x := range report.Severities {
		if worst[x] > 0 {
			sev = append(sev, fmt.Sprintf("%d %s", worst[x], x))
		}
	}
	if clean > 0 {
		sev = append(sev, fmt.Sprintf("%d without a diagnosis", clean))
	}
	if len(sev) > 0 {
		s += "; by worst diagnosis: " + strings.Join(sev, ", ")
	}
	return s + fmt.Sprintf("; %s, %s", plural(len(f.Groups), "group", "groups"), plural(len(f.FleetDiagnoses), "fleet diagnosis", "fleet diagnoses"))
}
