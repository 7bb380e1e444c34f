// Package lazyre defers compiling package-level regular expressions to their first use, so that
// a package's regexps cost nothing at process start-up (package init) and only the ones a run
// needs are ever compiled.
package lazyre

import (
	"errors"
	"regexp"
	"sync"
)

// exprs are the expressions passed to New, for Check.
var exprs []string

// New returns a function that compiles expr on its first call and returns that same
// *regexp.Regexp on every call; it is safe for concurrent use. Like regexp.MustCompile, it panics
// if expr is invalid, but only when first called: tests call Check to catch that early.
//
//	var speedRe = lazyre.New(`^(\d+)Mb/s`)
//	... speedRe().FindStringSubmatch(s) ...
//
// New is not inlined: every call site would get its own copy of the sync.OnceValue code, and
// the calls all run once, at init, where a call costs nothing.
//
//go:noinline
func New(expr string) func() *regexp.Regexp {
	exprs = append(exprs, expr)
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// Check compiles every expression passed to New so far (by all packages of the binary) and
// returns their errors joined, nil if all are valid.
func Check() error {
	var errs []error
	for _, e := range exprs {
		if _, err := regexp.Compile(e); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
