package engine

import (
	"reflect"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// evidenceType is shared by value in conversions: a netdev's fields mostly quote the same line.
var evidenceType = reflect.TypeFor[facts.Evidence]()

// inputValue is the document rules see as `input` (a *facts.Snapshot, or a *facts.Fleet for the
// fleet rules) as OPA's value: what encoding/json makes of it, built directly (converter).
func inputValue(doc any) (ast.Value, error) {
	c := converter{Shared: evidenceType}
	t, err := c.convert(reflect.ValueOf(doc))
	if err != nil {
		return nil, err
	}
	return t.Value, nil
}
