package render

import (
	"strings"
	"unicode/utf8"

	"github.com/jedib0t/go-pretty/v6/text"
)

// cols is the width of s on a terminal: runes by their display width, escape sequences not
// counted.
func cols(s string) int { return text.StringWidthWithoutEscSequences(s) }

// wrapText folds s into lines of at most width columns, the first line starting with first and
// the others with next. s is folded on blanks, but not inside a `quoted command` of a hint,
// which moves to the next line whole; a word (or quoted command) longer than a line is broken
// after punctuation where it can be (breakWord). For prose: messages, notes, reasons, quoted
// input lines.
func wrapText(s string, width int, first, next string) []string {
	avail := width - max(cols(first), cols(next))
	if avail < 10 {
		avail = 10
	}
	var out []string
	line, empty := first, true
	flush := func() {
		out = append(out, strings.TrimRight(line, " "))
		line, empty = next, true
	}
	// A tab has no width of its own: four blanks, as go-pretty renders one in a cell.
	for _, w := range proseWords(strings.ReplaceAll(s, "\t", "    ")) {
		sep := w.sep
		for _, part := range breakWord(w.text, avail) {
			if !empty && cols(line)+cols(sep)+cols(part) > width {
				flush()
			}
			if !empty {
				line += sep
			}
			line += part
			empty, sep = false, ""
		}
	}
	if !empty || len(out) == 0 {
		flush()
	}
	return out
}

// breakAfter are the characters a word too long for its line is broken after: those that
// part a host name, a path, an id or a list ("cx-ib-mode-on-" / "ethernet-switch").
const breakAfter = "-_./,:;=@|)]}"

// breakWord cuts s into pieces of at most width display columns (at least 1), each ending
// after the last punctuation character (breakAfter) that fits, when that is past a third of
// the line; otherwise, and for a run without punctuation, at the width. Nothing is dropped:
// the pieces joined give s back.
func breakWord(s string, width int) []string {
	width = max(width, 1)
	var out []string
	for cols(s) > width {
		cut, punct, w := 0, 0, 0
		for i, r := range s {
			rw := cols(string(r))
			if w+rw > width {
				break
			}
			w += rw
			cut = i + len(string(r))
			if strings.ContainsRune(breakAfter, r) && w > width/3 {
				punct = cut
			}
		}
		if punct > 0 {
			cut = punct
		}
		if cut == 0 { // a rune wider than the line
			_, n := utf8.DecodeRuneInString(s)
			cut = n
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

// word is a word of prose and the blanks before it, kept where the line does not break there
// (a quoted input line keeps its spacing).
type word struct{ sep, text string }

// proseWords splits s at runs of blanks that are not inside backquotes.
func proseWords(s string) []word {
	var words []word
	var sep, cur strings.Builder
	quoted := false
	for _, r := range s {
		switch {
		case r == '`':
			quoted = !quoted
		case (r == ' ' || r == '\t') && !quoted:
			if cur.Len() > 0 {
				words = append(words, word{sep.String(), cur.String()})
				sep.Reset()
				cur.Reset()
			}
			sep.WriteRune(r)
			continue
		}
		cur.WriteRune(r)
	}
	if cur.Len() > 0 {
		words = append(words, word{sep.String(), cur.String()})
	}
	return words
}

// wrapCommand folds a shell command into lines of at most width columns, the first starting with
// first and the others with next, at blanks outside quotes only, ending each line but the last
// with " \": pasted into a shell the lines are the same command. In a comment (from a word that
// starts with #) a backslash does not join lines, so there each line after the first starts a
// comment of its own ("# ") instead: a comment's second line never runs as a command. A word is
// never broken: one longer than a line has a line of its own (and is then the only thing wider
// than width).
func wrapCommand(cmd string, width int, first, next string) []string {
	words := shellWords(cmd)
	for i, w := range words {
		if strings.HasPrefix(w, "#") { // the rest is a comment, whose quotes quote nothing
			words = append(words[:i:i], strings.Fields(strings.Join(words[i:], " "))...)
			break
		}
	}
	var out []string
	line := first
	empty, comment := true, false
	for _, w := range words {
		if !empty && cols(line)+1+cols(w)+2 > width {
			if comment {
				out = append(out, line)
				line, empty = next+"#", false
			} else {
				out = append(out, line+" \\")
				line, empty = next, true
			}
		}
		if !empty {
			line += " "
		}
		line += w
		empty = false
		comment = comment || strings.HasPrefix(w, "#")
	}
	return append(out, line)
}

// shellWords splits cmd at runs of blanks that are outside single and double quotes (and not
// escaped by a backslash), keeping quotes and backslashes: joining the words with single
// blanks gives the command back, runs of blanks outside quotes folded to one.
func shellWords(cmd string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	escape := false
	for _, r := range cmd {
		switch {
		case escape:
			escape = false
		case r == '\\' && quote != '\'':
			escape = true
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == ' ' || r == '\t':
			if cur.Len() > 0 {
				words = append(words, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteRune(r)
	}
	if cur.Len() > 0 {
		words = append(words, cur.String())
	}
	return words
}

// wrapWidth is where the fleet table's messages and notes wrap (fleet_table.go).
const wrapWidth = 90

// wrapWords folds s on spaces into lines of at most width columns (a longer word gets a line of
// its own), each line starting with prefix.
func wrapWords(s string, width int, prefix string) []string {
	var lines []string
	line := prefix
	for _, w := range strings.Fields(s) {
		if line != prefix && cols(line)+1+cols(w) > width {
			lines = append(lines, line)
			line = prefix
		}
		if line != prefix {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
