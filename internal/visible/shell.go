package visible

import (
	"regexp"
	"strings"
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
// Control characters are not escaped here: Escape does that for the terminal.
func ShellQuote(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
