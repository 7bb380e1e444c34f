package ireval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Converter turns Go values into OPA terms with encoding/json's rules for the struct tags the
// facts types use (name, omitempty, "-"): going through JSON text costs several times more on a
// large snapshot. TestConverterMatchesJSON (package engine) holds the two equal on every corpus
// case.
//
// Allocation is most of its cost, so terms are shared where the value is the same: object keys
// (one term per struct field name), null, booleans and small integers (OPA's interned terms), and
// the values of the Shared struct type (evidence, which repeats: a netdev's fields mostly quote
// the same line). Evaluation does not modify the terms it is given.
type Converter struct {
	// Shared is a comparable struct type whose equal values get one term, or nil.
	Shared reflect.Type
	shared map[any]*ast.Term
}

var (
	marshalerType = reflect.TypeFor[json.Marshaler]()
	nullTerm      = ast.NullTerm()
)

// Term converts v. Errors: numbers JSON cannot hold (NaN, infinities) and the errors of
// json.Marshaler implementations.
func (c *Converter) Term(v reflect.Value) (*ast.Term, error) {
	if usesMarshaler(v) {
		return viaJSON(v)
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nullTerm, nil
		}
		return c.Term(v.Elem())
	case reflect.Struct:
		if c.Shared == nil || v.Type() != c.Shared {
			return c.structTerm(v)
		}
		key := v.Interface()
		if t, ok := c.shared[key]; ok {
			return t, nil
		}
		t, err := c.structTerm(v)
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
		if v.Type().Key().Kind() != reflect.String {
			return viaJSON(v)
		}
		terms := make([][2]*ast.Term, 0, v.Len())
		it := v.MapRange()
		for it.Next() {
			val, err := c.Term(it.Value())
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
			t, err := c.Term(v.Index(i))
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

// usesMarshaler reports whether encoding/json would call v's MarshalJSON (as a value, or through
// a non-nil pointer).
func usesMarshaler(v reflect.Value) bool {
	if v.Kind() == reflect.Pointer {
		return !v.IsNil() && v.Type().Implements(marshalerType)
	}
	return v.Type().Implements(marshalerType)
}

func (c *Converter) structTerm(v reflect.Value) (*ast.Term, error) {
	fields := fieldsOf(v.Type()).fields
	terms := make([][2]*ast.Term, 0, len(fields))
	for _, f := range fields {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmpty(fv) {
			continue
		}
		val, err := c.Term(fv)
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

// structFields are the JSON fields of a struct type, in declaration order, with an index by name
// and the order OPA iterates object keys in (sorted).
type structFields struct {
	fields []jsonField
	byName map[string]int
	sorted []int
}

var fieldCache sync.Map // reflect.Type -> *structFields

// fieldsOf lists the exported fields of t as encoding/json names them. Embedded structs are not
// flattened: the facts types have none (this would need to follow encoding/json there).
func fieldsOf(t reflect.Type) *structFields {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.(*structFields)
	}
	fs := &structFields{byName: map[string]int{}}
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
		fs.byName[name] = len(fs.fields)
		fs.sorted = append(fs.sorted, len(fs.fields))
		fs.fields = append(fs.fields, jsonField{index: i, name: name, key: ast.StringTerm(name), omitEmpty: strings.Contains(opts, "omitempty")})
	}
	sort.Slice(fs.sorted, func(a, b int) bool { return fs.fields[fs.sorted[a]].name < fs.fields[fs.sorted[b]].name })
	v, _ := fieldCache.LoadOrStore(t, fs)
	return v.(*structFields)
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
