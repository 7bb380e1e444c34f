package render

import (
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"
)

// DefaultWidth is the table's width when the output is no terminal and COLUMNS is not set: a
// fixed number, so that a log, a ticket or a test gets the same layout whoever ran it.
const DefaultWidth = 120

// MinWidth is the narrowest layout the table tries; below it lines may be wider than asked.
const MinWidth = 60

// MaxWidth is the widest layout the table takes: a wider COLUMNS or terminal is laid out to it,
// so that the output stays bounded (COLUMNS=100000 drew rule lines of 100,000 dashes) and the
// message column a readable measure.
const MaxWidth = 400

// Width is the number of columns to lay the table out to: COLUMNS when it is a positive
// number (the shell sets it, and a user or script may), else the size of the terminal w is,
// else DefaultWidth; never more than MaxWidth.
func Width(w io.Writer) int {
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && n > 0 {
		return min(n, MaxWidth)
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if n, _, err := term.GetSize(int(f.Fd())); err == nil && n > 0 {
			return min(n, MaxWidth)
		}
	}
	return DefaultWidth
}

// width is the layout width of opts: Width, or DefaultWidth when unset, never below MinWidth.
func (o Options) width() int {
	switch {
	case o.Width <= 0:
		return DefaultWidth
	case o.Width < MinWidth:
		return MinWidth
	}
	return o.Width
}
