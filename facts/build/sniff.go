package build

import (
	"bytes"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// sniffRe is a regular expression that tells a tool's output by its first sniffBytes. Most files
// are asked by every spec whether they are its tool's output (classify), and most answers are no:
// Match first looks for the literal text that any match must contain (need), found with
// bytes.Contains in well under a microsecond, and runs the expression only when all of it is there.
// Its answers are the expression's (TestSniffMatchesRegexp). Like lazyregexp's, the expression
// and its need are worked out when first used.
type sniffRe struct {
	re   *lazyregexp.Regexp
	once sync.Once
	need *need // nil: nothing is certain to be in a match
}

// sniffRes are all the sniffRe of the package, for the test that holds them to their expressions.
var sniffRes []*sniffRe

// mustSniff returns the expression expr (lazyregexp.New: it panics on a bad pattern when first
// used, at once in tests) with the literal text its matches need.
func mustSniff(expr string) *sniffRe {
	s := &sniffRe{re: lazyregexp.New(expr)}
	sniffRes = append(sniffRes, s)
	return s
}

// needs returns what a match of the expression needs, worked out on first use.
func (s *sniffRe) needs() *need {
	s.once.Do(func() {
		parsed, err := syntax.Parse(s.re.String(), syntax.Perl)
		if err != nil {
			s.re.Regexp() // panics naming the pattern, as regexp.MustCompile does
			panic(err)
		}
		s.need = needOf(parsed.Simplify())
	})
	return s.need
}

// Match reports whether b holds a match of the expression.
func (s *sniffRe) Match(b []byte) bool {
	return s.needs().in(b) && s.re.Match(b)
}

// FindAll is regexp's FindAll(b, n).
func (s *sniffRe) FindAll(b []byte, n int) [][]byte {
	if !s.needs().in(b) {
		return nil
	}
	return s.re.FindAll(b, n)
}

// need is text that every match of an expression contains: lit, or each of all, or at least one
// of any. A nil *need asks for nothing.
type need struct {
	lit []byte
	all []*need
	any []*need
}

// minNeed is the shortest literal worth looking for.
const minNeed = 2

// needOf works out what every match of re must contain, from its literals: a literal (not
// case-folded), the needs of each part of a concatenation, one of an alternation's when each
// alternative needs something, what a group or a repetition of at least once needs. Nil when
// nothing is certain.
func needOf(re *syntax.Regexp) *need {
	switch re.Op {
	case syntax.OpLiteral:
		lit := string(re.Rune)
		// regexp reads invalid UTF-8 as U+FFFD, which a byte search would not find.
		if re.Flags&syntax.FoldCase != 0 || len(lit) < minNeed || strings.ContainsRune(lit, utf8.RuneError) {
			return nil
		}
		return &need{lit: []byte(lit)}
	case syntax.OpCapture, syntax.OpPlus:
		return needOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return needOf(re.Sub[0])
		}
	case syntax.OpConcat:
		var all []*need
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
		return &need{all: all}
	case syntax.OpAlternate:
		anyOf := make([]*need, 0, len(re.Sub))
		for _, sub := range re.Sub {
			n := needOf(sub)
			if n == nil {
				return nil // this alternative may match without any literal
			}
			anyOf = append(anyOf, n)
		}
		return &need{any: anyOf}
	}
	return nil
}

// in reports whether b holds what n needs (always for nil).
func (n *need) in(b []byte) bool {
	switch {
	case n == nil:
		return true
	case n.lit != nil:
		return bytes.Contains(b, n.lit)
	case n.all != nil:
		for _, sub := range n.all {
			if !sub.in(b) {
				return false
			}
		}
		return true
	}
	for _, sub := range n.any {
		if sub.in(b) {
			return true
		}
	}
	return false
}
