// Package regexplit holds regular expressions that first look for the literal text every match of
// theirs contains, and run only when it is there. A parser or a sniff that asks dozens of
// expressions of every line or file head, most of which do not match, then costs a few
// bytes.Contains instead of dozens of backtracking runs (docs/performance.md, issue 12). The
// answers are the expressions' (TestMatchesRegexp). Compiled lazily, as lazyregexp's.
package regexplit

import (
	"bytes"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// Regexp is a regular expression with the literal text its matches need; safe for concurrent
// use.
type Regexp struct {
	re   *lazyregexp.Regexp
	once sync.Once
	need *Need
}

// New returns the expression expr, compiled when first used (lazyregexp.New: a bad pattern
// panics then, at once in tests).
func New(expr string) *Regexp { return &Regexp{re: lazyregexp.New(expr)} }

// Needs returns what a match needs (nil: nothing certain), worked out on first use.
func (r *Regexp) Needs() *Need {
	r.once.Do(func() {
		parsed, err := syntax.Parse(r.re.String(), syntax.Perl)
		if err != nil {
			r.re.Regexp() // panics naming the pattern, as regexp.MustCompile does
			panic(err)
		}
		r.need = needOf(parsed.Simplify())
	})
	return r.need
}

// Regexp returns the expression without the literal check.
func (r *Regexp) Regexp() *lazyregexp.Regexp { return r.re }

// String returns the expression's source text.
func (r *Regexp) String() string { return r.re.String() }

// Match reports whether b holds a match.
func (r *Regexp) Match(b []byte) bool { return r.Needs().In(b) && r.re.Match(b) }

// MatchString reports whether s holds a match.
func (r *Regexp) MatchString(s string) bool { return r.Needs().InString(s) && r.re.MatchString(s) }

// FindAll is regexp's FindAll(b, n).
func (r *Regexp) FindAll(b []byte, n int) [][]byte {
	if !r.Needs().In(b) {
		return nil
	}
	return r.re.FindAll(b, n)
}

// Need is text that every match of an expression contains: Lit (ignoring ASCII case when Fold),
// or each of All, or at least one of Any. A nil *Need asks for nothing.
type Need struct {
	Lit  string
	Fold bool
	All  []*Need
	Any  []*Need
	lit  []byte // Lit, for bytes.Contains
}

// minNeed is the shortest literal worth looking for.
const minNeed = 2

// needOf works out what every match of re must contain, from its literals: a literal, the needs
// of each part of a concatenation, one of an alternation's when each alternative needs
// something, what a group or a repetition of at least once needs. Nil when nothing is certain.
func needOf(re *syntax.Regexp) *Need {
	switch re.Op {
	case syntax.OpLiteral:
		lit := string(re.Rune)
		fold := re.Flags&syntax.FoldCase != 0
		switch {
		case len(lit) < minNeed,
			// regexp reads invalid UTF-8 as U+FFFD, which a byte search would not find.
			strings.ContainsRune(lit, utf8.RuneError),
			// (?i) folds Unicode: K and S also match the Kelvin sign and the long s, and
			// non-ASCII letters have folds of other lengths; an ASCII comparison would miss them.
			fold && (!isASCII(lit) || strings.ContainsAny(lit, "kKsS")):
			return nil
		}
		return &Need{Lit: lit, Fold: fold, lit: []byte(lit)}
	case syntax.OpCapture, syntax.OpPlus:
		return needOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return needOf(re.Sub[0])
		}
	case syntax.OpConcat:
		var all []*Need
		for _, sub := range re.Sub {
			if n := needOf(sub); n != nil {
				all = append(all, n)
			}
		}
		switch len(all) {
		case 0:
			return nil
		case 1:
			return all[0]
		}
		return &Need{All: all}
	case syntax.OpAlternate:
		anyOf := make([]*Need, 0, len(re.Sub))
		for _, sub := range re.Sub {
			n := needOf(sub)
			if n == nil {
				return nil // this alternative may match without any literal
			}
			anyOf = append(anyOf, n)
		}
		return &Need{Any: anyOf}
	}
	return nil
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// In reports whether b holds what n needs (always for nil).
func (n *Need) In(b []byte) bool { return holds(n, b) }

// InString is In for a string.
func (n *Need) InString(s string) bool { return holds(n, s) }

func holds[T string | []byte](n *Need, b T) bool {
	switch {
	case n == nil:
		return true
	case n.Lit != "" && n.Fold:
		return containsFold(b, n.Lit)
	case n.Lit != "":
		if s, ok := any(b).(string); ok {
			return strings.Contains(s, n.Lit)
		}
		return bytes.Contains([]byte(b), n.lit)
	case n.All != nil:
		for _, sub := range n.All {
			if !holds(sub, b) {
				return false
			}
		}
		return true
	}
	for _, sub := range n.Any {
		if holds(sub, b) {
			return true
		}
	}
	return false
}

// containsFold reports whether b holds lit (ASCII) in any ASCII letter case.
func containsFold[T string | []byte](b T, lit string) bool {
	for i := 0; i+len(lit) <= len(b); i++ {
		if equalFoldASCII(b[i:i+len(lit)], lit) {
			return true
		}
	}
	return false
}

func equalFoldASCII[T string | []byte](b T, lit string) bool {
	for i := range len(lit) {
		x, y := b[i], lit[i]
		if x == y {
			continue
		}
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
