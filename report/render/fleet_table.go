package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// hostListWidth is where a host list in the table wraps (at a comma outside brackets).
const hostListWidth = 40

// FleetTable writes the fleet report for an operator: a headline (nodes by status and worst
// severity), then the groups (one line per rule with its compressed host list, the number of
// nodes and subjects, and one example message), then the fleet diagnoses with their evidence
// and fixes, then the worst nodes, and last the nodes that could not be (fully) read. Control
// characters from the input are shown escaped.
func FleetTable(w io.Writer, f *report.Fleet, opts Options) error {
	f = escapedFleet(f)
	p := painter(opts.Color)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s fleet: %s\n", f.Tool.Name, f.Tool.Version, fleetSummary(f))

	if len(f.Groups) > 0 {
		b.WriteString("\nGroups (the same diagnosis on several nodes):\n")
		t := fleetTable()
		t.AppendHeader(table.Row{"severity", "id", "nodes", "subjects", "hosts, example"})
		for i, g := range f.Groups {
			if i > 0 {
				t.AppendRow(table.Row{"", "", "", "", ""})
			}
			hosts := wrapHostList(g.HostList, hostListWidth)
			t.AppendRow(table.Row{p(severityColors[g.Severity], g.Severity), g.ID, strconv.Itoa(len(g.Nodes)), strconv.Itoa(g.Subjects), hosts[0]})
			for _, h := range hosts[1:] {
				t.AppendRow(table.Row{"", "", "", "", h})
			}
			for _, l := range wrapWords("e.g. "+g.Example, wrapWidth, "") {
				t.AppendRow(table.Row{"", "", "", "", p(text.Colors{text.Faint}, l)})
			}
		}
		b.WriteString(t.Render() + "\n")
	}

	if len(f.FleetDiagnoses) > 0 {
		b.WriteString("\nFleet diagnoses (found by comparing nodes):\n")
		t := fleetTable()
		t.AppendHeader(table.Row{"#", "severity", "id", "hosts", "message"})
		for i, d := range f.FleetDiagnoses {
			if i > 0 {
				t.AppendRow(table.Row{"", "", "", "", ""})
			}
			msg := wrapWords(d.Message, wrapWidth, "")
			hosts := wrapHostList(d.HostList, hostListWidth)
			lines := append(msg[1:], fleetDetails(d, p)...)
			t.AppendRow(table.Row{strconv.Itoa(d.Rank), p(severityColors[d.Severity], d.Severity), d.ID, hosts[0], msg[0]})
			for j := 0; j < max(len(lines), len(hosts)-1); j++ {
				h, l := "", ""
				if j+1 < len(hosts) {
					h = hosts[j+1]
				}
				if j < len(lines) {
					l = lines[j]
				}
				t.AppendRow(table.Row{"", "", "", h, l})
			}
		}
		b.WriteString(t.Render() + "\n")
	}

	if worst := worstNodes(f, worstNodesShown); len(worst) > 0 {
		fmt.Fprintf(&b, "\nWorst nodes (%d of %s with a diagnosis):\n", len(worst), plural(countWithDiagnoses(f), "node", "nodes"))
		t := fleetTable()
		t.AppendHeader(table.Row{"host", "status", "worst", "diagnoses", "first diagnosis"})
		for _, n := range worst {
			first := n.Diagnoses[0]
			t.AppendRow(table.Row{n.Host, n.Status, p(severityColors[n.Worst], n.Worst), strconv.Itoa(len(n.Diagnoses)), first.ID + " on " + first.Subject.String()})
		}
		b.WriteString(t.Render() + "\n")
	}

	if len(f.Groups) == 0 && len(f.FleetDiagnoses) == 0 && len(nodesWith(f, report.NodeOK))+len(nodesWith(f, report.NodePartial)) > 0 {
		b.WriteString("\nNo problem found on the nodes that could be read by the rules that could run on them.\n")
	}
	if bad := nodesWith(f, report.NodeUnreadable); len(bad) > 0 {
		fmt.Fprintf(&b, "\n%s (%s, not diagnosed):\n", p(severityColors["error"], "Unreadable"), plural(len(bad), "node", "nodes"))
		for _, n := range bad {
			fmt.Fprintf(&b, "  %s: %s\n      %s\n", n.Host, n.Snapshot, n.Error)
		}
	}
	if partial := nodesWith(f, report.NodePartial); len(partial) > 0 {
		fmt.Fprintf(&b, "\nPartly read (%s: results may be incomplete):\n", plural(len(partial), "node", "nodes"))
		for _, n := range partial {
			fmt.Fprintf(&b, "  %s: %s\n", n.Host, strings.Join(n.Incomplete, ", "))
		}
	}
	if none := nodesWith(f, report.NodeNoRDMA); len(none) > 0 {
		hosts := make([]string, len(none))
		for i, n := range none {
			hosts[i] = n.Host
		}
		fmt.Fprintf(&b, "\nNothing about RDMA could be evaluated on %s: %s\n", plural(len(none), "node", "nodes"), strings.Join(hosts, ", "))
	}
	if len(f.Skipped) > 0 {
		fmt.Fprintf(&b, "\nFleet rules not checked (%d):\n", len(f.Skipped))
		for _, g := range groupSkipped(f.Skipped) {
			fmt.Fprintf(&b, "  %s\n      %s\n", g.Reason, p(text.Colors{text.Faint}, strings.Join(g.IDs, ", ")))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func fleetTable() table.Writer {
	t := table.NewWriter()
	t.SetStyle(tableStyle())
	t.SuppressTrailingSpaces()
	return t
}

// fleetDetails are the lines under a fleet diagnosis' message: the evidence with the host it
// is from, and the fix commands with their notes.
func fleetDetails(d report.FleetDiagnosis, p func(text.Colors, string) string) []string {
	var out []string
	if d.Confidence != "" && d.Confidence != "high" {
		out = append(out, d.Confidence+" confidence")
	}
	for _, ev := range d.Evidence {
		out = append(out, p(text.Colors{text.Faint}, "  "+ev.Host+": "+padding.ReplaceAllString(evidenceLine(ev.Evidence), "  ")))
	}
	for _, fx := range d.Fix {
		out = append(out, "$ "+p(text.Colors{text.Bold}, fx.Command))
		if fx.Note != "" {
			for _, l := range wrapWords(fx.Note, wrapWidth, "    # ") {
				out = append(out, p(text.Colors{text.Faint}, l))
			}
		}
	}
	return out
}

// countWithDiagnoses counts the nodes with at least one diagnosis.
func countWithDiagnoses(f *report.Fleet) int {
	n := 0
	for _, node := range f.Nodes {
		if len(node.Diagnoses) > 0 {
			n++
		}
	}
	return n
}

// wrapHostList folds a Slurm host list into lines of at most width columns, breaking only at a
// comma outside brackets (each line but the last ends with the comma); never empty.
func wrapHostList(hl string, width int) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(hl); i++ {
		switch hl[i] {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, hl[start:i+1])
				start = i + 1
			}
		}
	}
	parts = append(parts, hl[start:])
	lines := []string{""}
	for _, part := range parts {
		last := &lines[len(lines)-1]
		if *last != "" && len(*last)+len(part) > width {
			lines = append(lines, part)
			continue
		}
		*last += part
	}
	return lines
}
