package render

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// severityColors paint the severity column.
var severityColors = map[string]text.Colors{
	"critical": {text.Bold, text.FgHiRed},
	"error":    {text.FgRed},
	"warning":  {text.FgYellow},
	"info":     {text.FgCyan},
}

// Table writes the report for an operator: a header line (host, source, counts), one row per
// diagnosis (rank, severity, id, subject, message) with its evidence lines and fix commands
// below the message, consequences marked "(consequence of #N id)", and a footer with the checks
// that could not run and the inputs that had problems. All cells are strings, so go-pretty
// aligns nothing to the right. Control characters from the input are shown escaped (escaped).
func Table(w io.Writer, r *report.Report, opts Options) error {
	r = escaped(r)
	p := painter(opts.Color)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s, %s\n", r.Tool.Name, r.Tool.Version, hostLine(r), origin(r))
	fmt.Fprintf(&b, "%s\n", summary(r))

	if len(r.Diagnoses) > 0 {
		b.WriteString("\n")
		t := table.NewWriter()
		t.SetStyle(tableStyle())
		t.SuppressTrailingSpaces()
		t.AppendHeader(table.Row{"#", "severity", "id", "subject", "message"})
		for i, d := range r.Diagnoses {
			if i > 0 {
				// A blank row, not a rule: a rule spans the widest evidence line and wraps on an
				// 80-column terminal.
				t.AppendRow(table.Row{"", "", "", "", ""})
			}
			id := d.ID
			if d.ExplainedBy != nil {
				id = "└ " + id
			}
			msg := wrapWords(d.Message, wrapWidth, "")
			t.AppendRow(table.Row{strconv.Itoa(d.Rank), p(severityColors[d.Severity], d.Severity), id, d.Subject.String(), msg[0]})
			for i, line := range append(msg[1:], details(r, d, p)...) {
				conf := ""
				if i == 0 && d.Confidence != "high" {
					// Only the uncertain ones say so: most findings are proven (high).
					conf = d.Confidence + " conf."
				}
				t.AppendRow(table.Row{"", conf, "", "", line})
			}
		}
		b.WriteString(t.Render())
		b.WriteString("\n")
	} else if r.Evaluated > 0 {
		b.WriteString("\n" + nothingFound(r) + "\n")
	}

	if len(r.Ignored) > 0 {
		fmt.Fprintf(&b, "\nIgnored by the site's ignore list (%d):\n", len(r.Ignored))
		for _, ig := range r.Ignored {
			fmt.Fprintf(&b, "  %s\n      %s\n", ignoredLine(ig), p(text.Colors{text.Faint}, ig.Message))
		}
	}
	if groups := groupSkipped(r.Skipped); len(groups) > 0 {
		fmt.Fprintf(&b, "\nNot checked (%s):\n", plural(len(r.Skipped), "rule", "rules"))
		for _, g := range groups {
			fmt.Fprintf(&b, "  %s\n      %s\n", g.Reason, p(text.Colors{text.Faint}, strings.Join(g.IDs, ", ")))
		}
	}
	in := summariseSources(r.Sources)
	fmt.Fprintf(&b, "\nInputs: %d read, %d not in snapshot\n", in.Read, in.Missing)
	for _, s := range in.Problems {
		msg := sourceName(s)
		if s.Error != "" {
			msg += ": " + s.Error
		}
		fmt.Fprintf(&b, "  %-12s %s\n", s.Status, msg)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// details are the lines under a diagnosis' message: why it is a consequence, the evidence, and
// the fix commands with their notes.
func details(r *report.Report, d report.Diagnosis, p func(text.Colors, string) string) []string {
	var out []string
	if c := consequence(r, d); c != "" {
		out = append(out, p(text.Colors{text.Faint}, c))
	}
	for _, ev := range d.Evidence {
		// Column padding of the quoted line ("LINK_TYPE_P1      IB(1)") is folded to two spaces
		// so the table stays narrow; JSON, YAML and Markdown keep the line as read.
		out = append(out, p(text.Colors{text.Faint}, "  "+padding.ReplaceAllString(evidenceLine(ev), "  ")))
	}
	for _, f := range d.Fix {
		out = append(out, "$ "+p(text.Colors{text.Bold}, f.Command))
		if f.Note != "" {
			for _, l := range wrapWords(f.Note, wrapWidth, "    # ") {
				out = append(out, p(text.Colors{text.Faint}, l))
			}
		}
	}
	if d.NeedsReboot {
		out = append(out, "(the fix takes effect after a reboot or firmware reset)")
	}
	return out
}

// tableStyle draws no borders: rows are separated by a dashed line, columns by two spaces.
func tableStyle() table.Style {
	s := table.StyleDefault
	s.Options = table.Options{SeparateHeader: true, SeparateRows: false, DrawBorder: false, SeparateColumns: false}
	s.Box.PaddingLeft = ""
	s.Box.PaddingRight = "  "
	s.Box.MiddleHorizontal = "-"
	return s
}

// painter returns a function that colours a string, or leaves it alone when colour is off.
func painter(on bool) func(text.Colors, string) string {
	return func(c text.Colors, s string) string {
		if !on || len(c) == 0 {
			return s
		}
		return c.Sprint(s)
	}
}

// padding is a run of three or more blanks inside a quoted line.
var padding = regexp.MustCompile(`[ \t]{3,}`)

// wrapWidth is where messages and notes wrap; commands and quoted evidence never wrap, so they
// stay copyable.
const wrapWidth = 90

// wrapWords folds s on spaces into lines of at most width columns (a longer word gets a line of
// its own), each line starting with prefix.
func wrapWords(s string, width int, prefix string) []string {
	var lines []string
	line := prefix
	for _, w := range strings.Fields(s) {
		if line != prefix && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = prefix
		}
		if line != prefix {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
