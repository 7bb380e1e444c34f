// Package visible makes the control characters of untrusted text visible, so that text read from
// a node (a device name, a file name, a captured line) can be printed on a terminal or into a
// Markdown ticket without moving the cursor, retitling or clearing the terminal, or starting a
// new line, table row or code block.
package visible

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every control character written as a visible escape: C0 controls
// (U+0000..U+001F, except tab), DEL and C1 controls (U+0080..U+009F) as \n, \r, \a, \b, \f,
// \v or \xHH (ESC is \x1b); the Unicode line and paragraph separators and the bidirectional formatting
// characters (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069, which reorder what a
// reader sees) as \uHHHH; and each byte that is not UTF-8 as \xHH (a lone 0x9b is CSI to a
// terminal in 8-bit mode). Tab stays: it moves the cursor only forward on its line, and captured
// lines (lspci, ethtool) hold it. Backslashes are not doubled, so text without control
// characters is returned as it is.
func Escape(s string) string {
	if strings.IndexFunc(s, needsEscape) < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case needsEscape(r):
			b.WriteString(escapeRune(r))
		default:
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	return b.String()
}

// named are the C escapes of printf(1).
var named = map[rune]string{
	'\a': `\a`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\v': `\v`,
}

func escapeRune(r rune) string {
	if n, ok := named[r]; ok {
		return n
	}
	if r < 0x100 {
		return fmt.Sprintf(`\x%02x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}

// needsEscape reports the runes Escape rewrites.
func needsEscape(r rune) bool {
	switch {
	case r == '\t':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029,
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
