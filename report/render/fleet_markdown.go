package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// FleetMarkdown writes the fleet report for a ticket: the headline, the groups and the fleet
// diagnoses as tables, each fleet diagnosis' evidence and fixes in code blocks, the worst nodes,
// the fabric (report.Digest), and the nodes that could not be (fully) read.
func FleetMarkdown(w io.Writer, f *report.Fleet) error {
	f = escapedFleet(f)
	var b strings.Builder
	fmt.Fprintf(&b, "## rdmadoctor fleet report\n\n- Result: %s\n- Tool: %s %s\n", mdEscape(fleetSummary(f)), f.Tool.Name, f.Tool.Version)
	if len(f.Groups) > 0 {
		b.WriteString("\n### Groups\n\n| Severity | ID | Nodes | Subjects | Hosts | Example |\n|---|---|---|---|---|---|\n")
		for _, g := range f.Groups {
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s |\n", g.Severity, code(g.ID), len(g.Nodes), g.Subjects, code(g.HostList), mdEscape(g.Example))
		}
	}
	if len(f.FleetDiagnoses) > 0 {
		b.WriteString("\n### Fleet diagnoses\n\n| # | Severity | ID | Hosts | Message |\n|---|---|---|---|---|\n")
		for _, d := range f.FleetDiagnoses {
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s |\n", d.Rank, d.Severity, code(d.ID), code(d.HostList), mdEscape(d.Message))
		}
		for _, d := range f.FleetDiagnoses {
			fmt.Fprintf(&b, "\n#### %d. %s: %s\n\n%s  \n`%s`, confidence %s\n", d.Rank, d.Severity, mdEscape(d.Title), mdEscape(d.Message), d.ID, d.Confidence)
			if len(d.Evidence) > 0 {
				var lines strings.Builder
				for _, ev := range d.Evidence {
					lines.WriteString(ev.Host + ": " + evidenceLine(ev.Evidence) + "\n")
				}
				b.WriteString("\nEvidence:\n\n" + codeBlock("text", lines.String()))
			}
			if len(d.Fix) > 0 {
				var lines strings.Builder
				for _, fx := range d.Fix {
					if fx.Note != "" {
						lines.WriteString("# " + fx.Note + "\n")
					}
					lines.WriteString(fx.Command + "\n")
				}
				b.WriteString("\nFix:\n\n" + codeBlock("sh", lines.String()))
			}
		}
	}
	if worst := worstNodes(f, worstNodesShown); len(worst) > 0 {
		fmt.Fprintf(&b, "\n### Worst nodes (%d of %d with a diagnosis)\n\n| Host | Status | Worst | Diagnoses | First diagnosis |\n|---|---|---|---|---|\n", len(worst), countWithDiagnoses(f))
		for _, n := range worst {
			d := n.Diagnoses[0]
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %s on %s |\n", mdEscape(n.Host), n.Status, n.Worst, len(n.Diagnoses), code(d.ID), mdEscape(d.Subject.String()))
		}
	}
	if d := report.Digest(f.Fabric); d != nil {
		fleetFabricMarkdown(&b, d)
	}
	var problems []report.FleetNode
	for _, n := range f.Nodes {
		if n.Status != report.NodeOK {
			problems = append(problems, n)
		}
	}
	if len(problems) > 0 {
		b.WriteString("\n### Nodes not (fully) read\n\n| Host | Status | Snapshot | Why |\n|---|---|---|---|\n")
		for _, n := range problems {
			why := n.Error
			if why == "" {
				why = strings.Join(n.Incomplete, ", ")
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdEscape(n.Host), n.Status, code(n.Snapshot), mdEscape(why))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
