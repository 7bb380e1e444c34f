// Package plan holds the built-in rules (package rules) compiled at build time to OPA's
// intermediate representation: the query plan that `opa build -t plan` writes as plan.json, here
// as a Go composite literal in policy_gen.go that the Go compiler lays out statically, so that
// using it costs neither Rego compilation (80-170 ms) nor JSON decoding (150 ms) at run time.
//
// There is one plan per rule package, named rdmadoctor/rules/<id>/findings. Statements carry no
// source locations, and the built-in functions no declarations (see ast.BuiltinMap).
//
// rules_gen.go holds the rules' metadata (ids, severities, fix templates, requirements), their
// data document and catalog order, as engine.FromCompiled takes them: parsing the METADATA
// blocks cost a quarter of a diagnose run.
//
// policy_gen.go and rules_gen.go are regenerated from the rules with `go generate ./rules/plan`;
// a test fails while either is stale.
package plan

import (
	"github.com/open-policy-agent/opa/v1/ir"

	"github.com/rdmadoctor/rdmadoctor/engine"
)

// Rules is the metadata of the built-in rules for engine.FromCompiled. Shared: callers must not
// modify it.
func Rules() *engine.CompiledSet { return compiledRules }

//go:generate go run ./internal/gen/cmd -o policy_gen.go

// Policy is the plan of the built-in rules. It is shared: callers must not modify it.
func Policy() *ir.Policy {
	return policy
}
