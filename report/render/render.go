// Package render writes an report.Report as a table for a terminal, as JSON or YAML for
// programs, as Markdown to paste into a ticket, or as Prometheus metrics for node_exporter's
// textfile collector, or one line per diagnosis for shell scripts. Each format is one file; all of them are deterministic (the report is
// sorted, and nothing here adds map order, nor a time but the one Options.Time gives).
package render

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// Formats are the names --format accepts.
var Formats = []string{"table", "json", "yaml", "markdown", "prometheus", "lines"}

// Options tune the human formats, and say what the prometheus format reports beside the report.
type Options struct {
	// Color adds ANSI colours to the table; see UseColor.
	Color bool
	// Width is the number of terminal columns the table is laid out to (see Width); 0 is
	// DefaultWidth.
	Width int
	// Verbose lists, in the table's "Not checked" footer, the id of every rule not evaluated.
	Verbose bool
	// Time is when the run finished: the prometheus format's rdmadoctor_last_run_timestamp_seconds
	// (left out when zero, so that output of the same report is the same).
	Time time.Time
	// NoRDMAFacts says that nothing about RDMA could be evaluated (diagnose exit 3): the
	// prometheus format writes rdmadoctor_rdma_facts 0.
	NoRDMAFacts bool
}

// Write renders r in the named format.
func Write(w io.Writer, format string, r *report.Report, opts Options) error {
	switch format {
	case "table":
		return Table(w, r, opts)
	case "json":
		return JSON(w, r)
	case "yaml":
		return YAML(w, r)
	case "markdown":
		return Markdown(w, r)
	case "prometheus":
		return Prometheus(w, r, opts)
	case "lines":
		return Lines(w, r)
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

// UseColor reports whether a table written to w should be coloured: only on a terminal, and
// never when NO_COLOR is set (https://no-color.org) or the user asked for --no-color.
func UseColor(w io.Writer, noColor bool) bool {
	if noColor || os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// evidenceLine quotes one evidence line as path:line: text (path: text for a whole file).
func evidenceLine(ev facts.Evidence) string {
	loc := ev.Path
	if loc == "" {
		loc = ev.Source
	}
	if ev.Line > 0 {
		loc += ":" + strconv.Itoa(ev.Line)
	}
	return loc + ": " + strings.TrimSpace(ev.Text)
}

// consequence is the note a diagnosis carries when another one explains it; a cause that is
// not in the list was either ignored by the site's ignore list or hidden by --min-severity.
func consequence(r *report.Report, d report.Diagnosis) string {
	switch {
	case d.ExplainedBy == nil:
		return ""
	case d.ExplainedByRank > 0:
		return fmt.Sprintf("(consequence of #%d %s)", d.ExplainedByRank, *d.ExplainedBy)
	case r.IsIgnored(*d.ExplainedBy):
		return fmt.Sprintf("(consequence of %s, ignored)", *d.ExplainedBy)
	}
	return fmt.Sprintf("(consequence of %s, hidden)", *d.ExplainedBy)
}

// apartFromIgnored qualifies "no problem found" when the ignore list took diagnoses out.
func apartFromIgnored(r *report.Report) string {
	if len(r.Ignored) == 0 {
		return ""
	}
	return ", apart from the ignored ones below"
}

// ignoredLine is one ignored diagnosis in the human formats: "id on subject: reason".
func ignoredLine(ig report.Ignored) string {
	return fmt.Sprintf("%s on %s: %s", ig.ID, ig.Subject.String(), ig.Reason)
}

// summary is the one-line count: "3 diagnoses (1 critical, 2 warning); 12 rules run, 4
// skipped". When --min-severity hid every diagnosis it does not say "0 diagnoses" before the
// hidden ones: "No problem at or above error; 2 warnings hidden (--min-severity); ...".
func summary(r *report.Report) string {
	counts := r.Count()
	var parts []string
	for _, sev := range report.Severities {
		if n := counts[sev]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, sev))
		}
	}
	var s string
	switch {
	case len(r.Diagnoses) == 0 && r.Hidden > 0:
		s = fmt.Sprintf("No problem at or above %s; %s", r.MinSeverity, hiddenCounts(r))
	default:
		s = plural(len(r.Diagnoses), "diagnosis", "diagnoses")
		if len(parts) > 0 {
			s += " (" + strings.Join(parts, ", ") + ")"
		}
		if r.Hidden > 0 {
			s += ", " + hiddenCounts(r)
		}
	}
	if len(r.Ignored) > 0 {
		s += fmt.Sprintf(", %d ignored", len(r.Ignored))
	}
	inPart := r.NotJudgedRules()
	s += fmt.Sprintf("; %s run, %d skipped", plural(r.Evaluated, "rule", "rules"), len(r.Skipped)-inPart)
	if inPart > 0 {
		s += fmt.Sprintf(", %d run in part (a fact unknown for some subjects)", inPart)
	}
	if rules := r.FailedRules(); len(r.Incomplete) > 0 {
		if inputs := len(r.Incomplete) - rules; inputs > 0 {
			s += fmt.Sprintf("; %s not (fully) read", plural(inputs, "input", "inputs"))
		}
		if rules > 0 {
			s += fmt.Sprintf("; %s could not be evaluated", plural(rules, "rule", "rules"))
		}
		s += ": results may be incomplete"
	}
	return s
}

// severityPlurals name several diagnoses of a severity: "2 warnings", "3 info".
var severityPlurals = map[string]string{"critical": "critical", "error": "errors", "warning": "warnings", "info": "info"}

// hiddenCounts names the diagnoses --min-severity hid, by severity: "1 error, 2 warnings hidden
// (--min-severity warning... below error)".
func hiddenCounts(r *report.Report) string {
	counts := r.HiddenCount()
	var parts []string
	for _, sev := range report.Severities {
		if n := counts[sev]; n > 0 {
			parts = append(parts, plural(n, sev, severityPlurals[sev]))
		}
	}
	if len(parts) == 0 { // a report decoded from JSON: only the number is known
		parts = append(parts, plural(r.Hidden, "diagnosis", "diagnoses"))
	}
	return strings.Join(parts, ", ") + " hidden (--min-severity)"
}

// nothingFound is the line a report without diagnoses ends its list with; it does not claim the
// node is fine when some input or rule could not be read or evaluated, nor when --min-severity
// hid what was found.
func nothingFound(r *report.Report) string {
	line := fmt.Sprintf("No problem found by the %s that could run%s", plural(r.Evaluated, "rule", "rules"), apartFromIgnored(r))
	if r.Hidden > 0 {
		line = fmt.Sprintf("No problem at or above %s found by the %s that could run%s; %s: --min-severity info shows them",
			r.MinSeverity, plural(r.Evaluated, "rule", "rules"), apartFromIgnored(r), hiddenCounts(r))
	}
	if !r.Complete {
		return line + ", but the results may be incomplete: " + strings.Join(r.Incomplete, ", ") + " could not be (fully) read or evaluated."
	}
	return line + "."
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// origin describes where the snapshot came from: "captures testdata/node01", "live".
func origin(r *report.Report) string {
	return strings.TrimSpace(r.Source.Kind + " " + r.Source.Path)
}

// hostLine names the host: "node01, kernel 6.8.0"; "unknown host" without either.
func hostLine(r *report.Report) string {
	var parts []string
	if r.Host.Hostname != "" {
		parts = append(parts, r.Host.Hostname)
	}
	if r.Host.Kernel != "" {
		parts = append(parts, "kernel "+r.Host.Kernel)
	}
	if len(parts) == 0 {
		return "unknown host"
	}
	return strings.Join(parts, ", ")
}

// skipGroup is the rules skipped for one reason.
type skipGroup struct {
	Reason string
	IDs    []string
}

// groupSkipped groups skipped rules by reason, largest group first, then by reason.
func groupSkipped(skipped []report.Skipped) []skipGroup {
	idx := map[string]int{}
	var out []skipGroup
	for _, s := range skipped {
		i, ok := idx[s.Reason]
		if !ok {
			i = len(out)
			idx[s.Reason] = i
			out = append(out, skipGroup{Reason: s.Reason})
		}
		out[i].IDs = append(out[i].IDs, s.ID)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i].IDs) != len(out[j].IDs) {
			return len(out[i].IDs) > len(out[j].IDs)
		}
		return out[i].Reason < out[j].Reason
	})
	return out
}

// inputs summarises the sources: how many were read and missing, and the ones with problems
// (error, timeout, unsupported, unrecognized), in that order.
type inputs struct {
	Read, Missing int
	Problems      []facts.Source
}

func summariseSources(sources []facts.Source) inputs {
	var in inputs
	order := map[string]int{facts.StatusError: 0, facts.StatusTimeout: 1, facts.StatusPartial: 2, facts.StatusUnsupported: 3, facts.StatusUnrecognized: 4}
	for _, s := range sources {
		switch s.Status {
		case facts.StatusOK:
			in.Read++
		case facts.StatusMissing:
			in.Missing++
		default:
			in.Problems = append(in.Problems, s)
		}
	}
	sort.SliceStable(in.Problems, func(i, j int) bool {
		return order[in.Problems[i].Status] < order[in.Problems[j].Status]
	})
	return in
}

// sourceName is "ibstat (sos_commands/infiniband/ibstat)" or the origin alone for unrecognised files.
func sourceName(s facts.Source) string {
	switch {
	case s.Status == facts.StatusUnrecognized || s.Name == "":
		return s.Origin
	case s.Origin == "" || s.Origin == s.Name:
		return s.Name
	}
	return s.Name + " (" + s.Origin + ")"
}
