package engine

import (
	"reflect"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/engine/ireval"
	"github.com/rdmadoctor/rdmadoctor/facts"
)

// evidenceType is shared by value in conversions: a netdev's fields mostly quote the same line.
var evidenceType = reflect.TypeFor[facts.Evidence]()

// inputValue converts the snapshot to OPA's value, the document rules see as `input` when OPA's
// evaluator runs them (user rules, `rules test`). TestInputValueMatchesJSON holds it equal to
// what encoding/json makes of the snapshot.
func inputValue(s *facts.Snapshot) (ast.Value, error) {
	c := ireval.Converter{Shared: evidenceType}
	t, err := c.Term(reflect.ValueOf(s))
	if err != nil {
		return nil, err
	}
	return t.Value, nil
}
