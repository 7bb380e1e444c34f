// Package plan holds the built-in rules (package rules) compiled at build time to OPA's
// intermediate representation: the query plan that `opa build -t plan` writes as plan.json, here
// as a Go composite literal in policy_gen.go that the Go compiler lays out statically, so that
// using it costs neither Rego compilation (80-170 ms) nor JSON decoding (150 ms) at run time.
//
// There is one plan per rule package, named rdmadoctor/rules/<id>/findings. Statements carry no
// source locations, and the built-in functions no declarations (see ast.BuiltinMap).
//
// policy_gen.go is regenerated from the rules with `go generate ./rules/plan`; a test fails
// while it is stale.
package plan

import "github.com/open-policy-agent/opa/v1/ir"

//go:generate go run ./internal/gen/cmd -o policy_gen.go

// Policy is the plan of the built-in rules. It is shared: callers must not modify it.
func Policy() *ir.Policy {
	return policy
}
