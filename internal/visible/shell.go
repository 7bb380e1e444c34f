package visible

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// plainWord is a value that means the same to sh, bash and zsh unquoted, wherever it stands in
// a word: no blanks, quotes, operators, expansions, globs or comment sign. It may not start with
// "=" (zsh expands =cmd to a path) or "~" (excluded anyway).
var plainWord = regexp.MustCompile(`^[A-Za-z0-9_@%+:,./-][A-Za-z0-9_@%+=:,./-]*$`)

// ShellQuote returns s as one POSIX shell word: s itself when it is a plain word (mlx5_0,
// 0000:81:00.0, ib0), else s in single quotes, a quote inside closed, escaped and reopened:
//
//	x;y   ->  'x;y'
//	it's  ->  'it'\''s'
//
// The result may stand inside a larger unquoted word (/sys/class/net/'x;y'/mtu is one path).
// Control characters are not escaped here: Command writes a command holding them for the
// terminal.
func ShellQuote(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Command returns the shell command cmd (as the engine fills it: every value quoted by
// ShellQuote, or closed into a template's quotes) ready for a terminal or a ticket, with
// nothing Escape would rewrite left in it and the same meaning to bash: a single-quoted part
// holding such a character (a control character, a bidirectional mark, a byte that is not
// UTF-8) is rewritten in bash's ANSI-C quoting, each such byte a \xHH escape, which bash, zsh
// and ksh93 read back exactly, where Escape's rendering would name another value:
//
//	ibstat 'ib<ESC>[2J' 1  ->  ibstat $'ib\x1b[2J' 1   (Escape: ibstat 'ib\x1b[2J' 1)
//
// A comment (from an unquoted # that starts a word) is shown as Escape shows it: no quoting
// can protect it, and it is not run. Anything else is as Escape leaves it.
func Command(cmd string) string {
	if !NeedsEscape(cmd) {
		return cmd
	}
	var b strings.Builder
	wordStart := true
	for i := 0; i < len(cmd); {
		c := cmd[i]
		switch {
		case c == '#' && wordStart:
			b.WriteString(Escape(cmd[i:]))
			return b.String()
		case c == '\\' && i+1 < len(cmd):
			b.WriteString(Escape(cmd[i : i+2]))
			i += 2
		case c == '\'':
			end := strings.IndexByte(cmd[i+1:], '\'')
			if end < 0 { // not a command the engine wrote: shown as Escape shows it
				b.WriteString(Escape(cmd[i:]))
				return b.String()
			}
			if part := cmd[i+1 : i+1+end]; NeedsEscape(part) {
				b.WriteString(ansiC(part))
			} else {
				b.WriteString(cmd[i : i+2+end])
			}
			i += end + 2
		default:
			_, size := utf8.DecodeRuneInString(cmd[i:])
			b.WriteString(Escape(cmd[i : i+size]))
			i += size
		}
		wordStart = c == ' ' || c == '\t' || c == ';' || c == '|' || c == '&' || c == '(' || c == '\n'
	}
	return b.String()
}

// ansiC is s in bash's $'...' quoting: backslash and single quote escaped, each byte of a rune
// Escape rewrites (and each byte that is not UTF-8) as a C escape (\n, \r, ...; else \xHH,
// always two digits, so that a hex digit after it stays a character of its own), the rest as
// it is.
func ansiC(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == '\\' || r == '\'':
			b.WriteString(`\` + string(r))
		case r == utf8.RuneError && size == 1, needsEscape(r):
			if n, ok := named[r]; ok {
				b.WriteString(n)
				break
			}
			for i := range size {
				fmt.Fprintf(&b, `\x%02x`, s[i])
			}
		default:
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	return b.String() + "'"
}

// NeedsEscape reports whether s holds a character that Escape rewrites.
func NeedsEscape(s string) bool {
	return strings.IndexFunc(s, needsEscape) >= 0 || !utf8.ValidString(s)
}
