package engine

import (
	"reflect"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// fleetInputValue is the fleet document as OPA's value, as inputValue makes it, with one term
// per distinct string, object and array (termInterner): a fleet's nodes mostly hold equal
// devices, ports and evidence lines, and 10,000 copies of them were most of a fleet run's peak
// memory (docs/performance.md). The rules see the same value.
func fleetInputValue(doc *facts.Fleet) (ast.Value, error) {
	c := converter{Shared: evidenceType, Intern: &termInterner{strs: map[string]*ast.Term{}, terms: map[int][]*ast.Term{}, refs: map[ref]*ast.Term{}}}
	t, err := c.convert(reflect.ValueOf(doc))
	if err != nil {
		return nil, err
	}
	return t.Value, nil
}

// termInterner keeps one term per value. Terms are interned as the converter builds them,
// children first, so two equal objects or arrays already share their elements and comparing
// them is mostly comparing pointers. Evaluation does not modify the terms it is given (see
// converter). A nil termInterner interns nothing.
type termInterner struct {
	strs  map[string]*ast.Term
	terms map[int][]*ast.Term // by ast hash
	refs  map[ref]*ast.Term   // the terms of the Go values converted so far (byRef)
}

// ref names a Go slice, map or pointer by what it points to: the fleet document shares the
// parts equal across nodes (fleet's interner, fabricview's sharer), and a part seen again is
// its term, without walking it again.
type ref struct {
	t   reflect.Type
	ptr uintptr
	n   int
}

// refOf is the ref of v when v is a non-nil slice, map or pointer.
func refOf(v reflect.Value, ti *typeInfo) (ref, bool) {
	switch ti.kind {
	case reflect.Slice, reflect.Map, reflect.Pointer:
		if v.IsNil() {
			return ref{}, false
		}
		r := ref{t: v.Type(), ptr: v.Pointer()}
		if ti.kind != reflect.Pointer {
			r.n = v.Len()
		}
		return r, true
	}
	return ref{}, false
}

// byRef returns the term of the value r names, made by conv the first time.
func (in *termInterner) byRef(r ref, conv func() (*ast.Term, error)) (*ast.Term, error) {
	if t, ok := in.refs[r]; ok {
		return t, nil
	}
	t, err := conv()
	if err == nil {
		in.refs[r] = t
	}
	return t, err
}

// term returns the kept term equal to t, or keeps t.
func (in *termInterner) term(t *ast.Term) *ast.Term {
	if in == nil {
		return t
	}
	h := t.Hash()
	for _, k := range in.terms[h] {
		if k.Equal(t) {
			return k
		}
	}
	in.terms[h] = append(in.terms[h], t)
	return t
}

// string returns the string term of s, one per distinct s.
func (in *termInterner) string(s string) *ast.Term {
	if in == nil {
		return ast.StringTerm(s)
	}
	if t, ok := in.strs[s]; ok {
		return t
	}
	t := ast.StringTerm(s)
	in.strs[s] = t
	return t
}
