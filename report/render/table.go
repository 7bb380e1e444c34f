package render

import (
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// severityColors paint the severity column.
var severityColors = map[string]text.Colors{
	"critical": {text.Bold, text.FgHiRed},
	"error":    {text.FgRed},
	"warning":  {text.FgYellow},
	"info":     {text.FgCyan},
}

// Table writes the report for an operator, laid out to opts.Width columns: a header line (host,
// source, counts), one row per diagnosis (rank, severity, id, subject, message; the message
// wraps in its column) with its evidence lines and fix commands below it across the width
// (a command is never broken inside a word: a long one continues on the next line after " \"),
// consequences marked "(consequence of #N id)", and a footer with, per missing input, how many
// checks need it and how to get it, and the inputs that had problems. All cells are strings,
// so go-pretty aligns nothing to the right. Control characters from the input are shown
// escaped (escaped).
func Table(w io.Writer, r *report.Report, opts Options) error {
	r = escaped(r)
	p := painter(opts.Color)
	width := opts.width()
	var b strings.Builder
	put := func(s, first, next string, c text.Colors) {
		for _, l := range wrapText(s, width, first, next) {
			b.WriteString(p(c, l) + "\n")
		}
	}
	put(fmt.Sprintf("%s %s: %s, %s", r.Tool.Name, r.Tool.Version, hostLine(r), origin(r)), "", "    ", nil)
	put(summary(r), "", "    ", nil)

	if len(r.Diagnoses) > 0 {
		b.WriteString("\n")
		l := layoutFor(r.Diagnoses, width)
		for i, d := range r.Diagnoses {
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString(l.row(d, i == 0, p) + "\n")
			for _, line := range details(r, d, width-l.detailIndent(), p) {
				b.WriteString(strings.Repeat(" ", l.detailIndent()) + line + "\n")
			}
		}
	} else if r.Evaluated > 0 {
		b.WriteString("\n")
		put(nothingFound(r), "", "", nil)
	}

	if len(r.Ignored) > 0 {
		fmt.Fprintf(&b, "\nIgnored by the site's ignore list (%d):\n", len(r.Ignored))
		for _, ig := range r.Ignored {
			put(ignoredLine(ig), "  ", "      ", nil)
			put(ig.Message, "      ", "      ", text.Colors{text.Faint})
		}
	}
	writeNotChecked(&b, r, width, opts.Verbose, p)
	in := summariseSources(r.Sources)
	fmt.Fprintf(&b, "\nInputs: %d read, %d not in snapshot\n", in.Read, in.Missing)
	problems, folders := in.Problems, []sosFolder(nil)
	if r.Source.Kind == "sosreport" && !opts.Verbose {
		problems, folders = foldSosFolders(problems)
	}
	for _, s := range problems {
		msg := sourceName(s)
		if s.Error != "" {
			msg += ": " + s.Error
		}
		put(msg, fmt.Sprintf("  %-12s ", s.Status), strings.Repeat(" ", 15), nil)
	}
	for _, f := range folders {
		put(fmt.Sprintf("%d files of %s gave nothing a check reads: %s (-v lists them)", f.Files, f.Dir, strings.Join(f.Tools, ", ")),
			fmt.Sprintf("  %-12s ", facts.StatusUnrecognized), strings.Repeat(" ", 15), nil)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// sosFolder is a plugin folder of a sosreport whose unrecognised files are counted, not listed.
type sosFolder struct {
	Dir   string   // "sos_commands/networking/"
	Files int      // how many
	Tools []string // the commands they are the output of, sorted: "bridge", "ip", "netstat"
}

// minFolded is how many unrecognised files of one plugin folder are counted in one line rather
// than listed.
const minFolded = 3

// foldSosFolders takes out of problems the unrecognised files of each sos_commands/ plugin
// folder that holds minFolded or more of them (a sosreport's networking folder holds dozens of
// outputs, bridge, netstat, route, ..., that no check reads) and returns them counted per
// folder, with the commands they are the output of; the other problems are kept in order.
func foldSosFolders(problems []facts.Source) ([]facts.Source, []sosFolder) {
	byDir := map[string][]facts.Source{}
	for _, s := range problems {
		if dir, ok := sosPluginDir(s); ok {
			byDir[dir] = append(byDir[dir], s)
		}
	}
	var kept []facts.Source
	for _, s := range problems {
		if dir, ok := sosPluginDir(s); ok && len(byDir[dir]) >= minFolded {
			continue
		}
		kept = append(kept, s)
	}
	var out []sosFolder
	for dir, srcs := range byDir {
		if len(srcs) < minFolded {
			continue
		}
		f := sosFolder{Dir: dir, Files: len(srcs)}
		for _, s := range srcs {
			tool, _, _ := strings.Cut(path.Base(s.Origin), "_")
			if !slices.Contains(f.Tools, tool) {
				f.Tools = append(f.Tools, tool)
			}
		}
		sort.Strings(f.Tools)
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Dir < out[j].Dir })
	return kept, out
}

// layout is the columns of the diagnosis table, in terminal columns without the two blanks
// after each (go-pretty pads the last column too, and trims that after cutting a row at the
// width, so the columns leave it room): rank, severity, id, subject and message. When the five do not leave the message
// minMessage columns, the subject goes under the id, in one column (stacked).
type layout struct {
	width                    int
	rank, sev, id, subj, msg int
	stacked                  bool
}

const (
	gap        = 2  // blanks between columns
	maxSubject = 28 // a longer subject (a switch port with its description) wraps
	minMessage = 40 // narrower, and the subject goes under the id
	minStacked = 30 // narrower still, and the id column wraps
)

// layoutFor fits the columns to width: rank, severity and id as wide as their longest cell,
// the subject up to maxSubject, the message the rest.
func layoutFor(ds []report.Diagnosis, width int) layout {
	rank, sev, id, subj := 1, cols("severity"), cols("id"), cols("subject")
	for _, d := range ds {
		rank = max(rank, cols(strconv.Itoa(d.Rank)))
		sev = max(sev, cols(d.Severity), cols(confidenceNote(d)))
		id = max(id, cols(idCell(d)))
		subj = max(subj, cols(d.Subject.String()))
	}
	return fitLayout(width, rank, sev, id, subj)
}

// fitLayout fits columns of the given widths (in display columns, the longest cell of each) to
// width: the subject is cut to maxSubject (it wraps), the message gets the rest; when that is
// less than minMessage the subject goes under the id (stacked), and when the stacked message is
// still less than minStacked the id column narrows (an id then wraps at its dashes).
func fitLayout(width, rank, sev, id, subj int) layout {
	l := layout{width: width, rank: rank, sev: sev, id: id, subj: min(subj, maxSubject)}
	if l.msg = width - (l.rank + l.sev + l.id + l.subj + 5*gap); l.msg >= minMessage {
		return l
	}
	l.stacked = true
	l.id = max(l.id, l.subj)
	if l.msg = width - (l.rank + l.sev + l.id + 4*gap); l.msg < minStacked {
		l.id = max(cols("subject"), width-(l.rank+l.sev+4*gap)-minStacked)
		l.msg = width - (l.rank + l.sev + l.id + 4*gap)
	}
	return l
}

// detailIndent is where the lines under a diagnosis start: under its id.
func (l layout) detailIndent() int { return l.rank + l.sev + 2*gap }

// row renders one diagnosis' row (with the column headers above the first) by go-pretty, each
// column at its layout width: every diagnosis is a table of its own, so that its details can
// span the width below it, and all of them have the same columns.
func (l layout) row(d report.Diagnosis, header bool, p func(text.Colors, string) string) string {
	sev := p(severityColors[d.Severity], d.Severity)
	if c := confidenceNote(d); c != "" {
		// Only the uncertain ones say so: most findings are proven (high).
		sev += "\n" + c
	}
	subjectWidth := l.subj
	if l.stacked {
		subjectWidth = l.id
	}
	return l.render(header, "subject", strconv.Itoa(d.Rank), sev, idCell(d), text.WrapSoft(d.Subject.String(), subjectWidth), text.WrapSoft(d.Message, l.msg))
}

// render renders one row of the layout's columns: rank, sev (lines), id (broken at its
// dashes when wider than its column), subject (lines folded to the subject's width, or to the
// id's when stacked: it goes under the id) and the message (lines folded to its width); header
// adds the column headers, subject naming the fourth column ("subject", "hosts").
func (l layout) render(header bool, subject, rank, sev, id, subj, msg string) string {
	id = lines(breakWord(id, l.id)) // broken only on a terminal too narrow for it
	if l.stacked {
		var names []string
		if header {
			names = []string{"#", "severity", "id / " + subject, "message"}
		}
		return fixedRow(l.width, []int{l.rank, l.sev, l.id, l.msg}, names, rank, sev, id+"\n"+subj, msg)
	}
	var names []string
	if header {
		names = []string{"#", "severity", "id", subject, "message"}
	}
	return fixedRow(l.width, []int{l.rank, l.sev, l.id, l.subj, l.msg}, names, rank, sev, id, subj, msg)
}

// idCell is the id column of a diagnosis: a consequence hangs under its cause.
func idCell(d report.Diagnosis) string {
	if d.ExplainedBy != nil {
		return "└ " + d.ID
	}
	return d.ID
}

// confidenceNote is the second line of the severity column: "medium conf.", "" when high.
func confidenceNote(d report.Diagnosis) string {
	if d.Confidence == "high" || d.Confidence == "" {
		return ""
	}
	return d.Confidence + " conf."
}

// details are the lines under a diagnosis, at most width columns (but a word of a command
// longer than that): why it is a consequence, the evidence, and the fix commands with their
// notes.
func details(r *report.Report, d report.Diagnosis, width int, p func(text.Colors, string) string) []string {
	var out []string
	add := func(c text.Colors, lines []string) {
		for _, l := range lines {
			out = append(out, p(c, l))
		}
	}
	faint := text.Colors{text.Faint}
	if c := consequence(r, d); c != "" {
		add(faint, wrapText(c, width, "", ""))
	}
	for _, ev := range d.Evidence {
		// Column padding of the quoted line ("LINK_TYPE_P1      IB(1)") is folded to two spaces
		// so the table stays narrow; JSON, YAML and Markdown keep the line as read.
		add(faint, wrapText(padding.ReplaceAllString(evidenceLine(ev), "  "), width, "  ", "      "))
	}
	for _, f := range d.Fix {
		add(text.Colors{text.Bold}, wrapCommand(f.Command, width, "$ ", "    "))
		if f.Note != "" {
			add(faint, wrapText(f.Note, width, "    # ", "    # "))
		}
	}
	if d.NeedsReboot {
		add(nil, wrapText("(the fix takes effect after a reboot or firmware reset)", width, "", ""))
	}
	return out
}

// writeNotChecked writes the footer of the rules that were not evaluated: one line per missing
// input with the number of checks that need it and how to get it, most needed first; the
// rules whose evaluation failed, and those that ran but could not judge some subjects, each
// with its reason; with verbose, every rule id under its
// reason as well (JSON has them all in skipped[]).
func writeNotChecked(b *strings.Builder, r *report.Report, width int, verbose bool, p func(text.Colors, string) string) {
	if len(r.Skipped) == 0 {
		return
	}
	put := func(s, first, next string, c text.Colors) {
		for _, l := range wrapText(s, width, first, next) {
			b.WriteString(p(c, l) + "\n")
		}
	}
	b.WriteString("\n")
	if lacking := len(r.Skipped) - r.NotJudgedRules(); lacking > 0 {
		head := fmt.Sprintf("Not checked: %s lack an input", plural(lacking, "rule", "rules"))
		if !verbose {
			head += " (-v lists them)"
		}
		put(head+"; per input, the checks that need it:", "", "    ", nil)
	}
	for _, n := range needCounts(r) {
		line := fmt.Sprintf("%s (%s): ", n.What, plural(n.Count, "check", "checks"))
		switch {
		case n.Unreadable:
			line += "unreadable: " + n.How
		case n.How == "":
			line += "not in snapshot"
		default:
			line += n.How
		}
		put(line, "  ", "      ", nil)
	}
	for _, s := range r.Skipped {
		switch {
		case s.Failed:
			put(fmt.Sprintf("rule %s could not be evaluated: %s", s.ID, s.Reason), "  ", "      ", nil)
		case len(s.NotJudged) > 0:
			put(fmt.Sprintf("rule %s %s", s.ID, s.Reason), "  ", "      ", nil)
		}
	}
	if !verbose {
		return
	}
	b.WriteString("\nNot checked, by reason:\n")
	for _, g := range groupSkipped(r.Skipped) {
		put(g.Reason, "  ", "      ", nil)
		put(strings.Join(g.IDs, ", "), "      ", "      ", text.Colors{text.Faint})
	}
}

// needCount is a missing fact group with the number of skipped rules that lack it.
type needCount struct {
	report.Need
	Group string
	Count int
}

// needCounts counts, per fact group the skipped rules lack, the rules that lack it, most first,
// then by what it is; a group the report has no Need for is named by its id.
func needCounts(r *report.Report) []needCount {
	idx := map[string]int{}
	var out []needCount
	for _, s := range r.Skipped {
		for _, g := range s.Missing {
			i, ok := idx[g]
			if !ok {
				n, known := r.Needs[g]
				if !known {
					n = report.Need{What: g}
				}
				i = len(out)
				idx[g] = i
				out = append(out, needCount{Need: n, Group: g})
			}
			out[i].Count++
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].What < out[j].What
	})
	return out
}

// sosPluginDir is the sos_commands/<plugin>/ folder of an unrecognised file, ok false for
// another source (and for the count of files outside the plugin folders, "sos_commands/*").
func sosPluginDir(s facts.Source) (string, bool) {
	if s.Status != facts.StatusUnrecognized || !strings.HasPrefix(s.Origin, "sos_commands/") {
		return "", false
	}
	dir := path.Dir(s.Origin)
	if dir == "sos_commands" || dir == "." {
		return "", false
	}
	return dir + "/", true
}

// tableStyle draws no borders and no column separators: columns are two spaces apart, the
// header is underlined with dashes.
func tableStyle() table.Style {
	s := table.StyleDefault
	s.Options = table.Options{SeparateHeader: true, SeparateRows: false, DrawBorder: false, SeparateColumns: false}
	s.Box.PaddingLeft = ""
	s.Box.PaddingRight = strings.Repeat(" ", gap)
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
