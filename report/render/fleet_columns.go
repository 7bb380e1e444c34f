package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// The fleet table's three tables (groups, fleet diagnoses, worst nodes) are laid out like
// diagnose's: every column at a fixed width that the terminal holds, each row a go-pretty
// table of its own whose cells are folded before (host names and messages at blanks and
// punctuation, never clipped), and what needs the width (a host list and example on a narrow
// terminal, a fleet diagnosis' evidence and fix commands) on lines of its own below the row.

// fixedRow renders one row of cells in columns of the given widths (display columns, without
// the two blanks after each), the column headers above it when header is not nil. Each cell
// is folded to its width before (lines joined with "\n"): go-pretty keeps those lines.
func fixedRow(width int, widths []int, header []string, cells ...string) string {
	t := table.NewWriter()
	style := tableStyle()
	style.Size.WidthMax = width
	t.SetStyle(style)
	t.SuppressTrailingSpaces()
	configs := make([]table.ColumnConfig, len(widths))
	for i, w := range widths {
		configs[i] = table.ColumnConfig{Number: i + 1, WidthMin: w, WidthMax: w, WidthMaxEnforcer: text.WrapText}
	}
	t.SetColumnConfigs(configs)
	if header != nil {
		row := make(table.Row, len(header))
		for i, h := range header {
			row[i] = h
		}
		t.AppendHeader(row)
	}
	row := make(table.Row, len(cells))
	for i, c := range cells {
		row[i] = c
	}
	t.AppendRow(row)
	return t.Render()
}

// lines joins folded lines into one cell.
func lines(ls []string) string { return strings.Join(ls, "\n") }

// faintLines paints each line faint (each on its own: go-pretty pads lines, not escapes).
func faintLines(p func(text.Colors, string) string, ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = p(text.Colors{text.Faint}, l)
	}
	return out
}

// writeGroups writes the groups: severity, id, the numbers of nodes and subjects, and the
// compressed host list with one example message, in the row's last column when it leaves that
// minMessage columns, else on lines below the row, under its id, across the width. An id wider
// than a narrow terminal leaves it breaks at its dashes.
func writeGroups(b *strings.Builder, gs []report.Group, p func(text.Colors, string) string, width int) {
	sev, id, nodes, subjects := cols("severity"), cols("id"), cols("nodes"), cols("subjects")
	for _, g := range gs {
		sev, id = max(sev, cols(g.Severity)), max(id, cols(g.ID))
	}
	id = max(cols("id"), min(id, width-(sev+nodes+subjects+4*gap)))
	widths := []int{sev, id, nodes, subjects}
	header := []string{"severity", "id", "nodes", "subjects"}
	last := width - (sev + id + nodes + subjects + 5*gap)
	inRow := last >= minMessage
	if inRow {
		widths, header = append(widths, last), append(header, "hosts, example")
	} else {
		last = width - (sev + gap)
	}
	b.WriteString("\nGroups (the same diagnosis on several nodes):\n")
	for i, g := range gs {
		if i > 0 {
			b.WriteString("\n")
		}
		if i > 0 {
			header = nil
		}
		hosts := wrapHostList(g.HostList, min(hostListWidth, last))
		example := faintLines(p, wrapText("e.g. "+g.Example, last, "", ""))
		cells := []string{p(severityColors[g.Severity], g.Severity), lines(breakWord(g.ID, id)), strconv.Itoa(len(g.Nodes)), strconv.Itoa(g.Subjects)}
		if inRow {
			b.WriteString(fixedRow(width, widths, header, append(cells, lines(append(hosts, example...)))...) + "\n")
			continue
		}
		b.WriteString(fixedRow(width, widths, header, cells...) + "\n")
		for _, l := range append(hosts, example...) {
			b.WriteString(strings.Repeat(" ", sev+gap) + l + "\n")
		}
	}
}

// writeFleetDiagnoses writes the fleet diagnoses in diagnose's layout (fitLayout): rank,
// severity (and an uncertain confidence under it), id, the hosts (a host list folded at its
// commas, a long host name at its punctuation) and the message; below each, under its id and
// across the width, the evidence with the host it is from and the fix commands with their notes.
func writeFleetDiagnoses(b *strings.Builder, ds []report.FleetDiagnosis, p func(text.Colors, string) string, width int) {
	rank, sev, id, hosts := cols("#"), cols("severity"), cols("id"), cols("hosts")
	for _, d := range ds {
		rank, id = max(rank, cols(strconv.Itoa(d.Rank))), max(id, cols(d.ID))
		sev = max(sev, cols(d.Severity), cols(fleetConfidence(d)))
		for _, h := range wrapHostList(d.HostList, maxSubject) {
			hosts = max(hosts, cols(h))
		}
	}
	l := fitLayout(width, rank, sev, id, hosts)
	hostWidth := l.subj
	if l.stacked {
		hostWidth = l.id
	}
	b.WriteString("\nFleet diagnoses (found by comparing nodes):\n")
	for i, d := range ds {
		if i > 0 {
			b.WriteString("\n")
		}
		sevCell := p(severityColors[d.Severity], d.Severity)
		if c := fleetConfidence(d); c != "" {
			sevCell += "\n" + c
		}
		b.WriteString(l.render(i == 0, "hosts", strconv.Itoa(d.Rank), sevCell, d.ID,
			lines(wrapHostList(d.HostList, hostWidth)), lines(wrapText(d.Message, l.msg, "", ""))) + "\n")
		for _, line := range fleetDetails(d, p, width-l.detailIndent()) {
			b.WriteString(strings.Repeat(" ", l.detailIndent()) + line + "\n")
		}
	}
}

// fleetConfidence is the second line of a fleet diagnosis' severity: "low conf.", "" when high.
func fleetConfidence(d report.FleetDiagnosis) string {
	if d.Confidence == "high" || d.Confidence == "" {
		return ""
	}
	return d.Confidence + " conf."
}

// writeWorstNodes writes the worst nodes: host (folded at its punctuation, at most maxSubject
// columns, fewer on a narrow terminal), status, worst severity, the number of diagnoses and the
// first one, which gets the rest of the width (at least minStacked).
func writeWorstNodes(b *strings.Builder, f *report.Fleet, worst []report.FleetNode, p func(text.Colors, string) string, width int) {
	host, status, sev, count := cols("host"), cols("status"), cols("worst"), cols("diagnoses")
	for _, n := range worst {
		host, status, sev = max(host, cols(n.Host)), max(status, cols(n.Status)), max(sev, cols(n.Worst))
	}
	host = min(host, maxSubject)
	last := width - (host + status + sev + count + 5*gap)
	if last < minStacked {
		host = max(cols("host"), host-(minStacked-last))
		last = width - (host + status + sev + count + 5*gap)
	}
	fmt.Fprintf(b, "\nWorst nodes (%d of %s with a diagnosis):\n", len(worst), plural(countWithDiagnoses(f), "node", "nodes"))
	widths := []int{host, status, sev, count, last}
	header := []string{"host", "status", "worst", "diagnoses", "first diagnosis"}
	for i, n := range worst {
		if i > 0 {
			header = nil
		}
		first := n.Diagnoses[0]
		b.WriteString(fixedRow(width, widths, header, lines(breakWord(n.Host, host)), n.Status, p(severityColors[n.Worst], n.Worst),
			strconv.Itoa(len(n.Diagnoses)), lines(wrapText(first.ID+" on "+first.Subject.String(), last, "", ""))) + "\n")
	}
}
