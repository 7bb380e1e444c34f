// Package lazyregexp holds regular expressions declared at package level but compiled when
// first used, not when the program starts: rdmadoctor's parsers and specs declare about 250 of
// them, whose compile at start-up (2-3 ms) delayed every diagnose, most of which use a few
// (docs/performance.md, issue 14). It is the Go tool's own internal/lazyregexp, which is not
// importable. In tests every one is compiled at once, so that a bad pattern still fails at
// the start.
package lazyregexp

import (
	"regexp"
	"sync"
	"testing"
)

// Regexp is a regexp.Regexp compiled the first time it is used; safe for concurrent use.
type Regexp struct {
	str  string
	once sync.Once
	rx   *regexp.Regexp
}

// New returns the regular expression str, to be compiled (regexp.MustCompile: it panics on a
// bad pattern) when first used.
func New(str string) *Regexp {
	r := &Regexp{str: str}
	if testing.Testing() {
		r.Regexp()
	}
	return r
}

// Regexp returns the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(func() { r.rx = regexp.MustCompile(r.str) })
	return r.rx
}

// The methods of regexp.Regexp that rdmadoctor uses.

func (r *Regexp) String() string                       { return r.str }
func (r *Regexp) MatchString(s string) bool            { return r.Regexp().MatchString(s) }
func (r *Regexp) Match(b []byte) bool                  { return r.Regexp().Match(b) }
func (r *Regexp) FindString(s string) string           { return r.Regexp().FindString(s) }
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Regexp().FindStringSubmatch(s) }
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Regexp().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Regexp().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAll(b []byte, n int) [][]byte { return r.Regexp().FindAll(b, n) }
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Regexp().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) SubexpNames() []string       { return r.Regexp().SubexpNames() }
func (r *Regexp) SubexpIndex(name string) int { return r.Regexp().SubexpIndex(name) }
func (r *Regexp) FindAllString(s string, n int) []string {
	return r.Regexp().FindAllString(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringSubmatchIndex(s, n)
}
