package render

import (
	"fmt"
	"io"
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
// and fixes, then the worst nodes, then the fabric (report.Digest: subnet managers, links with
// errors, hosts' ports not mapped), and last the nodes that could not be (fully) read. Control
// characters from the input are shown escaped.
func FleetTable(w io.Writer, f *report.Fleet, opts Options) error {
	f = escapedFleet(f)
	p := painter(opts.Color)
	var b strings.Builder
	width := opts.Width
	if width <= 0 {
		width = DefaultWidth
	}
	for _, l := range wrapText(fmt.Sprintf("%s %s fleet: %s", f.Tool.Name, f.Tool.Version, fleetSummary(f)), width, "", "  ") {
		b.WriteString(l + "\n")
	}

	if len(f.Groups) > 0 {
		writeGroups(&b, f.Groups, p, width)
	}
	if len(f.FleetDiagnoses) > 0 {
		writeFleetDiagnoses(&b, f.FleetDiagnoses, p, width)
	}
	if worst := worstNodes(f, worstNodesShown); len(worst) > 0 {
		writeWorstNodes(&b, f, worst, p, width)
	}

	if len(f.Groups) == 0 && len(f.FleetDiagnoses) == 0 && len(nodesWith(f, report.NodeOK))+len(nodesWith(f, report.NodePartial)) > 0 {
		b.WriteString("\nNo problem found on the nodes that could be read by the rules that could run on them.\n")
	}
	if d := report.Digest(f.Fabric); d != nil {
		fleetFabricTable(&b, d, p, width)
	}
	if bad := nodesWith(f, report.NodeUnreadable); len(bad) > 0 {
		fmt.Fprintf(&b, "\n%s (%s, not diagnosed):\n", p(severityColors["error"], "Unreadable"), plural(len(bad), "node", "nodes"))
		for _, n := range bad {
			for _, l := range wrapText(hostAndSnapshot(n), width, "  ", "      ") {
				b.WriteString(l + "\n")
			}
			for _, l := range wrapText(strings.TrimPrefix(n.Error, n.Snapshot+": "), width, "      ", "      ") {
				b.WriteString(l + "\n")
			}
		}
	}
	if partial := nodesWith(f, report.NodePartial); len(partial) > 0 {
		fmt.Fprintf(&b, "\nPartly read (%s: results may be incomplete):\n", plural(len(partial), "node", "nodes"))
		for _, n := range partial {
			for _, l := range wrapText(n.Host+": "+strings.Join(n.Incomplete, ", "), width, "  ", "      ") {
				b.WriteString(l + "\n")
			}
		}
	}
	if none := nodesWith(f, report.NodeNoRDMA); len(none) > 0 {
		hosts := make([]string, len(none))
		for i, n := range none {
			hosts[i] = n.Host
		}
		b.WriteString("\n")
		for _, l := range wrapText(fmt.Sprintf("Nothing about RDMA could be evaluated on %s: %s", plural(len(none), "node", "nodes"), strings.Join(hosts, ", ")), width, "", "  ") {
			b.WriteString(l + "\n")
		}
	}
	if len(f.Skipped) > 0 {
		fmt.Fprintf(&b, "\nFleet rules not checked (%d):\n", len(f.Skipped))
		for _, g := range groupSkipped(f.Skipped) {
			for _, l := range wrapText(g.Reason, width, "  ", "    ") {
				b.WriteString(l + "\n")
			}
			for _, l := range wrapText(strings.Join(g.IDs, ", "), width, "      ", "      ") {
				b.WriteString(p(text.Colors{text.Faint}, l) + "\n")
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// hostAndSnapshot names an unreadable node: "node01: /data/node01.tar.gz", or the snapshot
// alone when the host is labelled by it ("binib", not "binib: binib").
func hostAndSnapshot(n report.FleetNode) string {
	if n.Host == n.Snapshot || n.Snapshot == "" {
		return n.Host
	}
	return n.Host + ": " + n.Snapshot
}

// lastColumn is the width left to a table's last column on a terminal of width columns after
// the other columns (of the given widths) and the two blanks after each column, its own too
// (go-pretty pads it before it trims); at least 30.
func lastColumn(width int, others ...int) int {
	w := width - gap
	for _, o := range others {
		w -= o + 2
	}
	return max(w, 30)
}

func fleetTable(width int) table.Writer {
	t := table.NewWriter()
	t.SetStyle(tableStyle())
	t.Style().Size.WidthMax = width
	t.SuppressTrailingSpaces()
	return t
}

// fleetDetails are the lines under a fleet diagnosis' message: the evidence with the host it
// is from, and the fix commands with their notes.
// Each is folded to width columns: prose at blanks, commands at blanks outside quotes with a
// " \\" continuation, so that a command still pastes as one.
func fleetDetails(d report.FleetDiagnosis, p func(text.Colors, string) string, width int) []string {
	var out []string
	for _, ev := range d.Evidence {
		for _, l := range wrapText(ev.Host+": "+padding.ReplaceAllString(evidenceLine(ev.Evidence), "  "), width, "  ", "      ") {
			out = append(out, p(text.Colors{text.Faint}, l))
		}
	}
	for _, fx := range d.Fix {
		for _, l := range wrapCommand(fx.Command, width, "$ ", "    ") {
			out = append(out, p(text.Colors{text.Bold}, l))
		}
		if fx.Note != "" {
			for _, l := range wrapText(fx.Note, width, "    # ", "    # ") {
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
	// A single host name longer than a line (a snapshot named by its folder) is broken.
	var fitted []string
	for _, part := range parts {
		fitted = append(fitted, breakWord(part, width)...)
	}
	parts = fitted
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
