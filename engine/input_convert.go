package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/open-policy-agent/opa/v1/ast"
)

// converter turns Go values into OPA terms with encoding/json's rules for the struct tags the
// facts types use (name, omitempty, "-"), without writing and parsing JSON text: that costs 2-3x
// more on a large snapshot (docs/performance.md). TestInputValueMatchesJSON holds the two equal
// on every corpus case.
//
// Allocation is most of its cost, so terms are shared where the value is the same: object keys
// (one term per struct field name), null, booleans and small integers (OPA's interned terms), and
// the values of the Shared struct type (evidence, which repeats: a netdev's fields mostly quote
// the same line). Evaluation does not modify the terms it is given.
type converter struct {
	// Shared is a comparable struct type whose equal values get one term, or nil.
	Shared reflect.Type
	shared map[any]*ast.Term
	// Intern, when set, makes every string, object and array term one term per value
	// (termInterner): the fleet document, where thousands of nodes hold equal devices.
	Intern *termInterner
}

var (
	marshalerType = reflect.TypeFor[json.Marshaler]()
	nullTerm      = ast.NullTerm()
)

// convert converts v. Errors: numbers JSON cannot hold (NaN, infinities) and the errors of
// json.Marshaler implementations.
func (c *converter) convert(v reflect.Value) (*ast.Term, error) {
	return c.term(v, infoOf(v.Type()))
}

func (c *converter) term(v reflect.Value, ti *typeInfo) (*ast.Term, error) {
	if ti.viaMarshaler(v) {
		return viaJSON(v)
	}
	if c.Intern != nil {
		if ref, ok := refOf(v, ti); ok {
			return c.Intern.byRef(ref, func() (*ast.Term, error) { return c.termOf(v, ti) })
		}
	}
	return c.termOf(v, ti)
}

func (c *converter) termOf(v reflect.Value, ti *typeInfo) (*ast.Term, error) {
	switch ti.kind {
	case reflect.Pointer:
		if v.IsNil() {
			return nullTerm, nil
		}
		return c.term(v.Elem(), ti.elem)
	case reflect.Interface:
		if v.IsNil() {
			return nullTerm, nil
		}
		return c.convert(v.Elem())
	case reflect.Struct:
		if c.Shared == nil || v.Type() != c.Shared {
			return c.structTerm(v, ti)
		}
		key := v.Interface()
		if t, ok := c.shared[key]; ok {
			return t, nil
		}
		t, err := c.structTerm(v, ti)
		if err == nil {
			if c.shared == nil {
				c.shared = map[any]*ast.Term{}
			}
			c.shared[key] = t
		}
		return t, err
	case reflect.Map:
		if v.IsNil() {
			return nullTerm, nil
		}
		if !ti.stringKey {
			return viaJSON(v)
		}
		terms := make([][2]*ast.Term, 0, v.Len())
		it := v.MapRange()
		for it.Next() {
			val, err := c.term(it.Value(), ti.elem)
			if err != nil {
				return nil, err
			}
			terms = append(terms, [2]*ast.Term{c.Intern.string(it.Key().String()), val})
		}
		return c.Intern.term(ast.NewTerm(ast.NewObject(terms...))), nil
	case reflect.Slice, reflect.Array:
		if ti.kind == reflect.Slice && v.IsNil() {
			return nullTerm, nil
		}
		if ti.bytes {
			return viaJSON(v) // []byte is base64 in JSON
		}
		terms := make([]*ast.Term, v.Len())
		for i := range terms {
			t, err := c.term(v.Index(i), ti.elem)
			if err != nil {
				return nil, err
			}
			terms[i] = t
		}
		return c.Intern.term(ast.NewTerm(ast.NewArray(terms...))), nil
	}
	if c.Intern == nil {
		return scalarTerm(v, ti)
	}
	if ti.kind == reflect.String {
		return c.Intern.string(v.String()), nil
	}
	t, err := scalarTerm(v, ti)
	if err != nil {
		return nil, err
	}
	return c.Intern.term(t), nil
}

// scalarTerm converts a string, boolean or number.
func scalarTerm(v reflect.Value, ti *typeInfo) (*ast.Term, error) {
	switch ti.kind {
	case reflect.String:
		return ast.StringTerm(v.String()), nil
	case reflect.Bool:
		return ast.InternedTerm(v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return ast.InternedTerm(v.Int()), nil // a new term unless small
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return ast.NumberTerm(json.Number(strconv.FormatUint(v.Uint(), 10))), nil
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("encode snapshot: unsupported number %v", f)
		}
		return ast.NumberTerm(json.Number(strconv.FormatFloat(f, 'g', -1, 64))), nil
	}
	return viaJSON(v)
}

func (c *converter) structTerm(v reflect.Value, ti *typeInfo) (*ast.Term, error) {
	terms := make([][2]*ast.Term, 0, len(ti.fields))
	for _, f := range ti.fields {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmpty(fv) {
			continue
		}
		val, err := c.term(fv, f.info)
		if err != nil {
			return nil, err
		}
		terms = append(terms, [2]*ast.Term{f.key, val})
	}
	return c.Intern.term(ast.NewTerm(ast.NewObject(terms...))), nil
}

// viaJSON converts the values the walk does not handle itself the slow, general way.
func viaJSON(v reflect.Value) (*ast.Term, error) {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return nil, fmt.Errorf("encode snapshot: %w", err)
	}
	val, err := ast.ValueFromReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return ast.NewTerm(val), nil
}
