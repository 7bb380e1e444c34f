package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// inputValue converts the snapshot to OPA's value, the document rules see as `input`. It walks
// the Go structs directly with encoding/json's rules for the tags the facts types use (name,
// omitempty, "-"): going through JSON text costs several times more on a large snapshot, and
// evaluation time is mostly this conversion. TestInputValueMatchesJSON holds the two equal.
//
// Allocation is most of its cost, so terms are shared where the value is the same: object keys
// (one term per struct field name), null, booleans and small integers (OPA's interned terms),
// and evidence, which repeats (a netdev's fields mostly quote the same line). Evaluation does not
// modify input terms.
func inputValue(s *facts.Snapshot) (ast.Value, error) {
	c := converter{evidence: map[facts.Evidence]*ast.Term{}}
	t, err := c.term(reflect.ValueOf(s))
	if err != nil {
		return nil, err
	}
	return t.Value, nil
}

var (
	marshalerType = reflect.TypeFor[json.Marshaler]()
	evidenceType  = reflect.TypeFor[facts.Evidence]()
	nullTerm      = ast.NullTerm()
)

// converter holds the terms shared within one conversion.
type converter struct {
	evidence map[facts.Evidence]*ast.Term
}

func (c *converter) term(v reflect.Value) (*ast.Term, error) {
	if v.Kind() != reflect.Pointer && v.Type().Implements(marshalerType) ||
		v.Kind() == reflect.Pointer && !v.IsNil() && v.Type().Implements(marshalerType) {
		return viaJSON(v)
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nullTerm, nil
		}
		return c.term(v.Elem())
	case reflect.Struct:
		if v.Type() == evidenceType {
			ev := v.Interface().(facts.Evidence)
			if t, ok := c.evidence[ev]; ok {
				return t, nil
			}
			t, err := c.structTerm(v)
			if err == nil {
				c.evidence[ev] = t
			}
			return t, err
		}
		return c.structTerm(v)
	case reflect.Map:
		if v.IsNil() {
			return nullTerm, nil
		}
		if v.Type().Key().Kind() != reflect.String {
			return viaJSON(v)
		}
		terms := make([][2]*ast.Term, 0, v.Len())
		it := v.MapRange()
		for it.Next() {
			val, err := c.term(it.Value())
			if err != nil {
				return nil, err
			}
			terms = append(terms, [2]*ast.Term{ast.StringTerm(it.Key().String()), val})
		}
		return ast.NewTerm(ast.NewObject(terms...)), nil
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return nullTerm, nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return viaJSON(v) // []byte is base64 in JSON
		}
		terms := make([]*ast.Term, v.Len())
		for i := range terms {
			t, err := c.term(v.Index(i))
			if err != nil {
				return nil, err
			}
			terms[i] = t
		}
		return ast.NewTerm(ast.NewArray(terms...)), nil
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

func (c *converter) structTerm(v reflect.Value) (*ast.Term, error) {
	fields := jsonFields(v.Type())
	terms := make([][2]*ast.Term, 0, len(fields))
	for _, f := range fields {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmpty(fv) {
			continue
		}
		val, err := c.term(fv)
		if err != nil {
			return nil, err
		}
		terms = append(terms, [2]*ast.Term{f.key, val})
	}
	return ast.NewTerm(ast.NewObject(terms...)), nil
}

type jsonField struct {
	index     int
	name      string
	key       *ast.Term // name as a term, shared by every object of the type
	omitEmpty bool
}

var fieldCache sync.Map // reflect.Type -> []jsonField

// jsonFields lists the exported fields of t as encoding/json names them. Embedded structs are
// not flattened: the facts types have none (toValue would need to follow encoding/json there).
func jsonFields(t reflect.Type) []jsonField {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]jsonField)
	}
	var fs []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		fs = append(fs, jsonField{index: i, name: name, key: ast.StringTerm(name), omitEmpty: strings.Contains(opts, "omitempty")})
	}
	fieldCache.Store(t, fs)
	return fs
}

// isEmpty is encoding/json's notion of an empty value for omitempty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
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
