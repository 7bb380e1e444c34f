package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// Markdown writes the report for a ticket or chat: a summary table, then one section per
// diagnosis with its evidence and fix commands in code blocks, then what could not be checked.
func Markdown(w io.Writer, r *report.Report) error {
	r = escaped(r)
	var b strings.Builder
	fmt.Fprintf(&b, "## rdmadoctor report: %s\n\n", mdEscape(hostLine(r)))
	fmt.Fprintf(&b, "- Source: %s\n", code(origin(r)))
	fmt.Fprintf(&b, "- Result: %s\n", summary(r))
	fmt.Fprintf(&b, "- Tool: %s %s\n", r.Tool.Name, r.Tool.Version)

	if len(r.Diagnoses) > 0 {
		b.WriteString("\n| # | Severity | ID | Subject | Message |\n|---|---|---|---|---|\n")
		for _, d := range r.Diagnoses {
			msg := mdEscape(d.Message)
			if c := consequence(r, d); c != "" {
				msg += " " + mdEscape(c)
			}
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s |\n", d.Rank, d.Severity, code(d.ID), mdEscape(d.Subject.String()), msg)
		}
		for _, d := range r.Diagnoses {
			fmt.Fprintf(&b, "\n### %d. %s: %s, %s\n\n", d.Rank, d.Severity, d.Title, mdEscape(d.Subject.String()))
			fmt.Fprintf(&b, "%s  \n`%s`, confidence %s", mdEscape(d.Message), d.ID, d.Confidence)
			if c := consequence(r, d); c != "" {
				fmt.Fprintf(&b, ", %s", mdEscape(c))
			}
			b.WriteString("\n")
			if len(d.Evidence) > 0 {
				var lines strings.Builder
				for _, ev := range d.Evidence {
					lines.WriteString(evidenceLine(ev) + "\n")
				}
				b.WriteString("\nEvidence:\n\n" + codeBlock("text", lines.String()))
			}
			if len(d.Fix) > 0 {
				b.WriteString("\nFix")
				if d.NeedsReboot {
					b.WriteString(" (takes effect after a reboot or firmware reset)")
				}
				var lines strings.Builder
				for _, f := range d.Fix {
					if f.Note != "" {
						lines.WriteString("# " + f.Note + "\n")
					}
					lines.WriteString(f.Command + "\n")
				}
				b.WriteString(":\n\n" + codeBlock("sh", lines.String()))
			}
			if len(d.References) > 0 {
				b.WriteString("\nReferences: " + strings.Join(d.References, ", ") + "\n")
			}
		}
	} else if r.Evaluated > 0 {
		b.WriteString("\n" + nothingFound(r) + "\n")
	}

	if len(r.Ignored) > 0 {
		fmt.Fprintf(&b, "\n### Ignored by the site's ignore list (%d)\n\n| ID | Subject | Reason | Message |\n|---|---|---|---|\n", len(r.Ignored))
		for _, ig := range r.Ignored {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", code(ig.ID), mdEscape(ig.Subject.String()), mdEscape(ig.Reason), mdEscape(ig.Message))
		}
	}
	if groups := groupSkipped(r.Skipped); len(groups) > 0 {
		fmt.Fprintf(&b, "\n### Not checked (%s)\n\n| Reason | Rules |\n|---|---|\n", plural(len(r.Skipped), "rule", "rules"))
		for _, g := range groups {
			ids := make([]string, len(g.IDs))
			for i, id := range g.IDs {
				ids[i] = code(id)
			}
			fmt.Fprintf(&b, "| %s | %s |\n", mdEscape(g.Reason), strings.Join(ids, ", "))
		}
	}
	in := summariseSources(r.Sources)
	fmt.Fprintf(&b, "\n### Inputs\n\n%d read, %d not in snapshot.\n", in.Read, in.Missing)
	if len(in.Problems) > 0 {
		b.WriteString("\n| Status | Input | Error |\n|---|---|---|\n")
		for _, s := range in.Problems {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", s.Status, code(sourceName(s)), mdEscape(s.Error))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdEscape keeps text and table cells from being read as Markdown or HTML. Code spans
// (`...`) are kept as they are, except for the table's "|".
func mdEscape(s string) string {
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 { // an unpaired backtick: no code spans
		parts = []string{strings.ReplaceAll(s, "`", "\\`")}
	}
	text := strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;", "\n", " ")
	inCode := strings.NewReplacer("|", `\|`, "\n", " ")
	for i, p := range parts {
		if i%2 == 0 {
			parts[i] = text.Replace(p)
		} else {
			parts[i] = inCode.Replace(p)
		}
	}
	return strings.Join(parts, "`")
}

// code wraps s in a code span whose backtick fence is longer than any run of backticks in s
// (CommonMark 6.1), padded with a space when s starts or ends with one; "|" is escaped for the
// tables.
func code(s string) string {
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(s, "|", `\|`)
	f := strings.Repeat("`", longestBacktickRun(s)+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return f + " " + s + " " + f
	}
	return f + s + f
}

// codeBlock fences lines (each ending in a newline) as a code block of the language lang, with
// a fence longer than any run of backticks in them, so no line can close it (CommonMark 4.5).
func codeBlock(lang, lines string) string {
	f := strings.Repeat("`", max(3, longestBacktickRun(lines)+1))
	return f + lang + "\n" + lines + f + "\n"
}

// longestBacktickRun is the length of the longest run of "`" in s.
func longestBacktickRun(s string) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != '`' {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return longest
}
