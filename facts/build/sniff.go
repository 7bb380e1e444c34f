package build

import "github.com/rdmadoctor/rdmadoctor/internal/regexplit"

// sniffRes are the expressions that tell a tool's output by its first sniffBytes, for the test
// that holds them to the plain expressions on every fixture. Most files are asked by every spec
// whether they are its tool's output (classify), and most answers are no: regexplit looks for
// the literal text a match needs before running the expression.
var sniffRes []*regexplit.Regexp

// mustSniff returns the sniff expression expr (regexplit.New).
func mustSniff(expr string) *regexplit.Regexp {
	r := regexplit.New(expr)
	sniffRes = append(sniffRes, r)
	return r
}
