// Package parse holds one pure parser per tool output: bytes in, typed records out, no I/O.
package parse

import (
	"fmt"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Line is one input line with its 1-based number, without its line ending.
type Line struct {
	N    int
	Text string
}

// Lines splits b into lines; "\r\n" endings are accepted and a final newline adds no empty line.
func Lines(b []byte) []Line {
	s := string(b)
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	out := make([]Line, 0, strings.Count(s, "\n")+1)
	for n := 1; ; n++ {
		text, rest, more := strings.Cut(s, "\n")
		out = append(out, Line{N: n, Text: strings.TrimSuffix(text, "\r")})
		if !more {
			return out
		}
		s = rest
	}
}

// Evidence returns the line as evidence; the builder stamps source and path.
func (l Line) Evidence() facts.Evidence {
	return facts.Evidence{Line: l.N, Text: l.Text}
}

// Errorf returns an error that names the line and quotes it (a *LineError).
func (l Line) Errorf(format string, args ...any) error {
	return &LineError{Line: l, Why: fmt.Sprintf(format, args...)}
}
