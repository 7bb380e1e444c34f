package engine

import (
	"reflect"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// typeInfo is what encoding/json's rules make of a Go type, worked out once per type: the
// converter reads values through it instead of asking reflect on every access.
type typeInfo struct {
	kind reflect.Kind
	// marshaler: encoding/json calls the type's MarshalJSON.
	marshaler bool
	// elem is the element type of a pointer, slice, array or map.
	elem *typeInfo
	// bytes: a []byte, which JSON encodes as base64.
	bytes bool
	// stringKey: a map whose keys are strings.
	stringKey bool
	// fields are a struct's JSON fields in declaration order.
	fields []jsonField
}

type jsonField struct {
	index     int
	name      string
	key       *ast.Term // name as a term, shared by every object of the type
	omitEmpty bool
	info      *typeInfo
}

var (
	typeCache sync.Map // reflect.Type -> *typeInfo, complete
	typeMu    sync.Mutex
)

// infoOf returns the typeInfo of t.
func infoOf(t reflect.Type) *typeInfo {
	if ti, ok := typeCache.Load(t); ok {
		return ti.(*typeInfo)
	}
	typeMu.Lock()
	defer typeMu.Unlock()
	building := map[reflect.Type]*typeInfo{}
	ti := buildInfo(t, building)
	for t, ti := range building {
		typeCache.Store(t, ti)
	}
	return ti
}

// buildInfo works out t and the types it contains; building holds those under way (types may be
// recursive).
func buildInfo(t reflect.Type, building map[reflect.Type]*typeInfo) *typeInfo {
	if ti, ok := typeCache.Load(t); ok {
		return ti.(*typeInfo)
	}
	if ti, ok := building[t]; ok {
		return ti
	}
	ti := &typeInfo{kind: t.Kind(), marshaler: t.Implements(marshalerType)}
	building[t] = ti
	switch ti.kind {
	case reflect.Pointer, reflect.Array:
		ti.elem = buildInfo(t.Elem(), building)
	case reflect.Slice:
		ti.elem = buildInfo(t.Elem(), building)
		ti.bytes = t.Elem().Kind() == reflect.Uint8
	case reflect.Map:
		ti.elem = buildInfo(t.Elem(), building)
		ti.stringKey = t.Key().Kind() == reflect.String
	case reflect.Struct:
		ti.structFields(t, building)
	}
	return ti
}

// structFields lists the exported fields of struct type t as encoding/json names them. Embedded
// structs are not flattened: the facts types have none (this would need to follow encoding/json
// there).
func (ti *typeInfo) structFields(t reflect.Type, building map[reflect.Type]*typeInfo) {
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
		ti.fields = append(ti.fields, jsonField{index: i, name: name, key: ast.StringTerm(name),
			omitEmpty: strings.Contains(opts, "omitempty"), info: buildInfo(f.Type, building)})
	}
}

// viaMarshaler reports whether encoding/json calls MarshalJSON for v (of type ti): a nil
// pointer is null instead.
func (ti *typeInfo) viaMarshaler(v reflect.Value) bool {
	return ti.marshaler && (ti.kind != reflect.Pointer || !v.IsNil())
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
