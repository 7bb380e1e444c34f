package engine

import (
	"bytes"
	"encoding/json"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// inputValue is the snapshot as OPA's value, the document rules see as `input`: its JSON
// encoding (the field names of the facts types) read by OPA's own JSON reader.
func inputValue(s *facts.Snapshot) (ast.Value, error) {
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(s); err != nil {
		return nil, err
	}
	return ast.ValueFromReader(&b)
}
