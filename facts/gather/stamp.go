package gather

import (
	"reflect"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

var evidenceType = reflect.TypeOf(facts.Evidence{})

// stamp fills Source and Path of every Evidence reachable from v (a pointer) that lacks them.
// Parsers know lines, not files; the builder knows the file.
func stamp(v any, source, path string) {
	stampValue(reflect.ValueOf(v), source, path)
}

func stampValue(v reflect.Value, source, path string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			stampValue(v.Elem(), source, path)
		}
	case reflect.Struct:
		if v.Type() == evidenceType {
			if !v.CanSet() {
				return
			}
			ev := v.Addr().Interface().(*facts.Evidence)
			if ev.Path == "" && (ev.Line > 0 || ev.Text != "") {
				ev.Source, ev.Path = source, path
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				stampValue(v.Field(i), source, path)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			stampValue(v.Index(i), source, path)
		}
	case reflect.Map:
		if !hasEvidence(v.Type().Elem()) {
			return
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			stampValue(e, source, path)
			v.SetMapIndex(k, e)
		}
	}
}

// hasEvidence reports whether values of t can hold an Evidence.
func hasEvidence(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Struct:
		if t == evidenceType {
			return true
		}
		for i := 0; i < t.NumField(); i++ {
			if hasEvidence(t.Field(i).Type) {
				return true
			}
		}
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return hasEvidence(t.Elem())
	}
	return false
}
