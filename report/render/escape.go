package render

import (
	"reflect"

	"github.com/rdmadoctor/rdmadoctor/internal/rewrite"
	"github.com/rdmadoctor/rdmadoctor/internal/visible"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// escaped returns a copy of r whose every string, at any depth (messages, subjects, evidence
// paths and lines, fix commands and notes, skipped reasons, source names and errors, the host),
// has its control characters made visible (visible.Escape), for the table and Markdown views:
// a device named "\x1b]0;pwned\a\x1b[2J" prints as \x1b]0;pwned\a\x1b[2J and neither retitles
// nor clears the terminal, and a newline in a file name cannot start a table row, a Markdown
// line or a command. The renderers add their own colours after. JSON and YAML need no copy:
// their encoders escape control characters. Reflection rather than a list of fields, so that a
// field added to the report or to facts is covered without a change here; r is not modified.
func escaped(r *report.Report) *report.Report {
	out := *r // the unexported fields too
	rewrite.Strings(reflect.ValueOf(&out).Elem(), visible.Escape)
	return &out
}
