package parse

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// LineError is a line a parser could not use, and why. Line.Errorf returns one.
type LineError struct {
	Line Line
	Why  string
}

func (e *LineError) Error() string {
	return fmt.Sprintf("line %d: %q: %s", e.Line.N, e.Line.Text, e.Why)
}

// Problems is the error of a parser that kept everything it could: the records it returns are
// good, and each of these lines could not be used (a value that does not parse, a block cut
// short, a count that disagrees with what was parsed). The builder records the source as
// partial, not as an error. Never empty: a parser returns a nil error instead.
type Problems []facts.Problem

func (p Problems) Error() string {
	first := p[0]
	msg := fmt.Sprintf("line %d: %q: %s", first.Line, first.Text, first.Why)
	if first.Line == 0 {
		msg = first.Why
	}
	if len(p) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(p)-1)
	}
	return msg
}

// AsProblems returns the lines of a partial parse, or ok false when err is not one.
func AsProblems(err error) (Problems, bool) {
	var p Problems
	if errors.As(err, &p) {
		return p, true
	}
	return nil, false
}

// problems collects the lines a parser could not use while it keeps going.
type problems struct{ list Problems }

// add records line l with why (a format), once per line.
func (p *problems) add(l Line, format string, args ...any) {
	why := fmt.Sprintf(format, args...)
	for _, q := range p.list {
		if q.Line == l.N && l.N != 0 && q.Why == why {
			return
		}
	}
	p.list = append(p.list, facts.Problem{Line: l.N, Text: l.Text, Why: why})
}

// addErr records err, a *LineError or a Problems; anything else is recorded against the file.
func (p *problems) addErr(err error) {
	var le *LineError
	switch {
	case err == nil:
	case errors.As(err, &le):
		p.add(le.Line, "%s", le.Why)
	default:
		if ps, ok := AsProblems(err); ok {
			p.list = append(p.list, ps...)
			return
		}
		p.list = append(p.list, facts.Problem{Why: err.Error()})
	}
}

// err returns the collected problems as an error, nil when there are none.
func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	return p.list
}

// cut adds a problem when b does not end with a newline and its last line belongs to a block
// that incomplete says is unfinished: the capture was cut there (`head -c`, a paste that stopped).
// A complete last block without a final newline is a paste, not a cut.
func (p *problems) cut(b []byte, lines []Line, incomplete bool) {
	if len(b) == 0 || b[len(b)-1] == '\n' || len(lines) == 0 || !incomplete {
		return
	}
	p.add(lines[len(lines)-1], "file ends mid-line: the capture was cut here")
}

// missingKeys returns the keys of want that were not seen, as "A, B".
func missingKeys(seen map[string]bool, want []string) string {
	var miss []string
	for _, w := range want {
		if !seen[w] {
			miss = append(miss, w)
		}
	}
	return strings.Join(miss, ", ")
}

// replaced adds a problem for each line holding U+FFFD, the character facts/source.Text puts in
// place of a byte that is not UTF-8: none of the tools this is used for print one, so the capture
// was damaged there (a copy through a wrong encoding, a disk error) and the value may be wrong.
func (p *problems) replaced(lines []Line) {
	for _, l := range lines {
		if strings.ContainsRune(l.Text, utf8.RuneError) {
			p.add(l, "holds a byte that is not UTF-8: the capture was damaged here")
		}
	}
}

// cutUnless adds a problem when b does not end with a newline and its last line is not one
// that complete accepts as the tool's last line of a block: the capture was cut there.
func (p *problems) cutUnless(b []byte, lines []Line, complete func(Line) bool) {
	if len(lines) == 0 {
		return
	}
	p.cut(b, lines, !complete(lines[len(lines)-1]))
}
