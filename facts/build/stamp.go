package build

import (
	"reflect"
	"sync"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

var (
	evidenceType    = reflect.TypeOf(facts.Evidence{})
	evidenceMapType = reflect.TypeOf(facts.EvidenceMap(nil))
)

// stamp fills Source and Path of every Evidence reachable from v (a pointer) that lacks them.
// Parsers know lines, not files; the builder knows the file.
func stamp(v any, source, path string) {
	stampValue(reflect.ValueOf(v), source, path, nil)
}

// stampCount is stamp, and returns how many evidence entries reachable from v are of path:
// how many facts the file gave.
func stampCount(v any, source, path string) int {
	n := 0
	stampValue(reflect.ValueOf(v), source, path, &n)
	return n
}

func stampValue(v reflect.Value, source, path string, n *int) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			stampValue(v.Elem(), source, path, n)
		}
	case reflect.Struct:
		if v.Type() == evidenceType {
			if !v.CanSet() {
				return
			}
			stampEvidence(v.Addr().Interface().(*facts.Evidence), source, path, n)
			return
		}
		for _, i := range evidenceFields(v.Type()) {
			stampValue(v.Field(i), source, path, n)
		}
	case reflect.Slice, reflect.Array:
		if !mayHoldEvidence(v.Type().Elem()) {
			return
		}
		for i := 0; i < v.Len(); i++ {
			stampValue(v.Index(i), source, path, n)
		}
	case reflect.Map:
		// Every fact carries an EvidenceMap: stamp it without reflection.
		if v.Type() == evidenceMapType {
			stampEvidenceMap(v.Interface().(facts.EvidenceMap), source, path, n)
			return
		}
		if !hasEvidence(v.Type().Elem()) {
			return
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			stampValue(e, source, path, n)
			v.SetMapIndex(k, e)
		}
	}
}

func stampEvidence(ev *facts.Evidence, source, path string, n *int) {
	if ev.Path == "" && (ev.Line > 0 || ev.Text != "") {
		ev.Source, ev.Path = source, path
	}
	if n != nil && ev.Path == path && ev.Source == source {
		*n++
	}
}

func stampEvidenceMap(m facts.EvidenceMap, source, path string, n *int) {
	for k, ev := range m {
		if ev.Path == "" && (ev.Line > 0 || ev.Text != "") {
			ev.Source, ev.Path = source, path
			m[k] = ev
		}
		if n != nil && ev.Path == path && ev.Source == source {
			*n++
		}
	}
}

// evidenceFieldsCache maps a struct type to the indexes of its exported fields that can hold an
// Evidence, so that the walk skips strings, numbers and counter maps rather than visiting them
// (and their elements) after every file.
var evidenceFieldsCache sync.Map // reflect.Type -> []int

func evidenceFields(t reflect.Type) []int {
	if f, ok := evidenceFieldsCache.Load(t); ok {
		return f.([]int)
	}
	var f []int
	for i := 0; i < t.NumField(); i++ {
		if sf := t.Field(i); sf.IsExported() && mayHoldEvidence(sf.Type) {
			f = append(f, i)
		}
	}
	evidenceFieldsCache.Store(t, f)
	return f
}

// mayHoldEvidence reports whether stampValue can find an Evidence in a value of type t: like
// hasEvidence, but an interface may hold anything.
func mayHoldEvidence(t reflect.Type) bool {
	return reachesCached(t, true)
}

// hasEvidence reports whether values of t can hold an Evidence.
func hasEvidence(t reflect.Type) bool {
	return reachesCached(t, false)
}

type reachesKey struct {
	t            reflect.Type
	viaInterface bool
}

// reachesCache maps a reachesKey to the answer of reaches.
var reachesCache sync.Map // reachesKey -> bool

func reachesCached(t reflect.Type, viaInterface bool) bool {
	k := reachesKey{t, viaInterface}
	if ok, found := reachesCache.Load(k); found {
		return ok.(bool)
	}
	ok := reaches(t, viaInterface, map[reflect.Type]bool{})
	reachesCache.Store(k, ok)
	return ok
}

// reaches reports whether an Evidence is reachable from type t, counting interfaces as reaching
// one when viaInterface is set. seen holds the types being visited, so recursive types end.
func reaches(t reflect.Type, viaInterface bool, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Interface:
		return viaInterface
	case reflect.Struct:
		if t == evidenceType {
			return true
		}
		for i := 0; i < t.NumField(); i++ {
			if reaches(t.Field(i).Type, viaInterface, seen) {
				return true
			}
		}
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return reaches(t.Elem(), viaInterface, seen)
	}
	return false
}
