package fleet

import (
	"encoding/json"
	"hash/maphash"
	"reflect"
	"sync"
	"unique"

	"github.com/rdmadoctor/rdmadoctor/internal/rewrite"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// interner keeps one copy of what many nodes' reports share. A node's evidence quotes lines of
// its snapshot's files, and a Go substring keeps its whole file alive: without this a fleet
// would hold every node's inputs to the end. Whole lists equal to another node's (the skipped
// rules of nodes whose snapshots hold the same inputs, the diagnoses of identical nodes) are
// shared, and so are the parts of node summaries (devices, ports, evidence maps) equal to
// another node's; the strings of the others are made canonical (unique.Make), so memory grows
// with what differs between nodes, not with their number. Safe for concurrent use.
type interner struct {
	seed      maphash.Seed
	mu        sync.Mutex
	diagnoses map[uint64][][]report.Diagnosis
	skipped   map[uint64][][]report.Skipped
	values    map[keptKey][]reflect.Value // the parts of node summaries
}

// keptKey is a value's type and the hash of its JSON.
type keptKey struct {
	t reflect.Type
	h uint64
}

func newInterner() *interner {
	return &interner{seed: maphash.MakeSeed(), diagnoses: map[uint64][][]report.Diagnosis{}, skipped: map[uint64][][]report.Skipped{},
		values: map[keptKey][]reflect.Value{}}
}

// node replaces n's lists and strings with the shared copies. n's lists must be its own (its
// report was made for it); the shared ones must not be modified afterwards.
func (in *interner) node(n *report.FleetNode) {
	n.Diagnoses = share(in, in.diagnoses, n.Diagnoses)
	n.Skipped = share(in, in.skipped, n.Skipped)
	for _, p := range []*string{&n.Host, &n.Hostname, &n.Snapshot, &n.Status, &n.Error, &n.Worst} {
		*p = canonical(*p)
	}
	rewrite.Strings(reflect.ValueOf(&n.Incomplete).Elem(), canonical)
	if n.Summary != nil {
		// A summary names its host: no two are equal, and only its parts are looked up.
		c := *n.Summary
		in.fields(reflect.ValueOf(&c).Elem())
		n.Summary = &c
	}
}

// value returns the kept value equal to v (a slice, map or pointer), or keeps a copy of v made
// of kept parts: a node's summary differs from its peers' in its host and a few facts, and its
// devices, ports and evidence maps are those of another node more often than not.
func (in *interner) value(v reflect.Value) reflect.Value {
	if v.IsNil() || (v.Kind() != reflect.Pointer && v.Len() == 0) {
		return v
	}
	b, err := json.Marshal(v.Interface())
	if err != nil { // not expected of a summary; keep the node's own
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		rewrite.Strings(c, canonical)
		return c
	}
	k := keptKey{v.Type(), maphash.Bytes(in.seed, b)}
	in.mu.Lock()
	for _, kept := range in.values[k] {
		if reflect.DeepEqual(kept.Interface(), v.Interface()) {
			in.mu.Unlock()
			return kept
		}
	}
	in.mu.Unlock()
	c := in.parts(v)
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, kept := range in.values[k] { // kept by another worker meanwhile
		if reflect.DeepEqual(kept.Interface(), v.Interface()) {
			return kept
		}
	}
	in.values[k] = append(in.values[k], c)
	return c
}

// parts copies v, a slice, map or pointer, with its strings canonical and, where its elements
// are structs holding slices, maps or pointers, those shared (value).
func (in *interner) parts(v reflect.Value) reflect.Value {
	elem := v.Type().Elem()
	if elem.Kind() != reflect.Struct || !holdsReferences(elem) || v.Kind() == reflect.Map {
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		rewrite.Strings(c, canonical)
		return c
	}
	switch v.Kind() {
	case reflect.Pointer:
		c := reflect.New(elem)
		c.Elem().Set(v.Elem())
		in.fields(c.Elem())
		return c
	default: // slice
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(c, v)
		for i := range c.Len() {
			in.fields(c.Index(i))
		}
		return c
	}
}

// fields makes the strings of the struct s canonical and shares its slices, maps and pointers.
func (in *interner) fields(s reflect.Value) {
	for i := range s.NumField() {
		f := s.Field(i)
		if !f.CanSet() {
			continue
		}
		switch f.Kind() {
		case reflect.String:
			f.SetString(canonical(f.String()))
		case reflect.Slice, reflect.Map, reflect.Pointer:
			f.Set(in.value(f))
		case reflect.Struct, reflect.Interface:
			rewrite.Strings(f, canonical)
		}
	}
}

// holdsReferences reports whether struct type t has a slice, map or pointer field.
func holdsReferences(t reflect.Type) bool {
	for i := range t.NumField() {
		switch t.Field(i).Type.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer:
			return true
		}
	}
	return false
}

// share returns the list equal to v kept in m, or keeps v (its strings made canonical) as that.
func share[T any](in *interner, m map[uint64][][]T, v []T) []T {
	if len(v) == 0 {
		return v
	}
	b, err := json.Marshal(v)
	if err != nil { // not expected of a report; keep the node's own
		rewrite.Strings(reflect.ValueOf(&v).Elem(), canonical)
		return v
	}
	h := maphash.Bytes(in.seed, b)
	in.mu.Lock()
	for _, kept := range m[h] {
		if reflect.DeepEqual(kept, v) {
			in.mu.Unlock()
			return kept
		}
	}
	in.mu.Unlock()
	rewrite.Strings(reflect.ValueOf(&v).Elem(), canonical)
	in.mu.Lock()
	m[h] = append(m[h], v)
	in.mu.Unlock()
	return v
}

func canonical(s string) string {
	if s == "" {
		return s
	}
	return unique.Make(s).Value()
}
