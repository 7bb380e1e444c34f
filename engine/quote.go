package engine

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
	"github.com/rdmadoctor/rdmadoctor/internal/visible"
)

// operatorPlaceholder is text in angle brackets for the operator to replace: <cpus local to
// the NIC>, <PortGUID>. A redirect (< file, <<EOF, 2>&1) does not start with "<" and a letter.
var operatorPlaceholder = lazyregexp.New(`^<[A-Za-z][^<>\n]*>`)

// shellContext is where a placeholder stands in a fix command, as sh reads the template.
type shellContext int

const (
	unquoted     shellContext = iota
	singleQuoted              // inside '...' the template opened
	doubleQuoted              // inside "..." the template opened
	comment                   // after an unquoted # that starts a word, to the end of the line
)

// encode writes the value v so that sh reads it back as exactly v in context c: quoted as a
// word where unquoted; with each ' closed and reopened inside single quotes; closing and
// reopening the template's double quotes around a quoted word inside double quotes; and, in a
// comment, which no quoting can protect, with its control characters made visible, so that a
// newline or carriage return in v cannot end the comment and start a command.
func (c shellContext) encode(v string) string {
	switch c {
	case singleQuoted:
		return strings.ReplaceAll(v, "'", `'\''`)
	case doubleQuoted:
		if q := visible.ShellQuote(v); q != v {
			return `"` + q + `"`
		}
		return v
	case comment:
		return visible.Escape(v)
	}
	return visible.ShellQuote(v)
}

// placeholderContexts returns the shell context of each placeholder match of the template tmpl
// (matches as placeholderPattern.FindAllStringSubmatchIndex gives them), reading the template
// as sh does: backslash escapes, '...' and "..." quotes, and comments from a # at the start of
// a word. A placeholder is taken to fill in a non-empty word part. What the operator is to
// replace whole, such as <cpus of the slot's socket>, is skipped: its quote is not the shell's.
func placeholderContexts(tmpl string, matches [][]int) []shellContext {
	out := make([]shellContext, len(matches))
	state := unquoted
	wordStart := true
	pos := 0
	for i, m := range matches {
		state, wordStart = scanShell(tmpl[pos:m[0]], state, wordStart)
		out[i] = state
		wordStart = false
		pos = m[1]
	}
	return out
}

// scanShell advances the shell reading state over s; wordStart says whether the next byte would
// start a word (so that # opens a comment).
func scanShell(s string, state shellContext, wordStart bool) (shellContext, bool) {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch state {
		case singleQuoted:
			if ch == '\'' {
				state = unquoted
			}
		case doubleQuoted:
			switch ch {
			case '\\':
				i++
			case '"':
				state = unquoted
			}
		case comment:
			if ch == '\n' {
				state, wordStart = unquoted, true
			}
		default:
			switch {
			case ch == '\\':
				i++
				wordStart = false
			case ch == '\'':
				state, wordStart = singleQuoted, false
			case ch == '"':
				state, wordStart = doubleQuoted, false
			case ch == '#' && wordStart:
				state = comment
			case ch == '<' && operatorPlaceholder.MatchString(s[i:]):
				i += len(operatorPlaceholder.FindString(s[i:])) - 1
				wordStart = false
			default:
				wordStart = strings.IndexByte(" \t\n;&|()<>", ch) >= 0
			}
		}
	}
	return state, wordStart
}
