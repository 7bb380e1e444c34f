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
// line or a command. A fix command is written by visible.Command instead: a quoted value with
// control characters becomes $'...' (ibstat $'ib\x1b[2J' 1), which pastes into bash as the
// same command, where the escaped form would name another device. The renderers add their own
// colours after. JSON and YAML need no copy: their encoders escape control characters.
// Reflection rather than a list of fields, so that a field added to the report or to facts is
// covered without a change here; r is not modified.
func escaped(r *report.Report) *report.Report {
	out := *r // the unexported fields too
	rewrite.StringsBy(reflect.ValueOf(&out).Elem(), visible.Escape, commandFields)
	return &out
}

// commandFields are the strings escaped and escapedFleet quote as commands (visible.Command).
var commandFields = map[rewrite.Field]func(string) string{
	{Type: reflect.TypeOf(report.Fix{}), Name: "Command"}: visible.Command,
}
