package ireval

import (
	"reflect"
	"sort"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
)

// value is a Rego value during evaluation: a term, or a view of a Go value of the input (a
// struct, a non-nil slice or array, a non-nil map with string keys) that becomes a term only
// where one is needed: as an operand of a built-in function, inside a value the plan builds, or
// compared with another composite value. The zero value is undefined.
type value struct {
	t  *ast.Term
	v  reflect.Value // when t is nil
	ti *typeInfo     // v's type
}

func termValue(t *ast.Term) value { return value{t: t} }

func (x value) defined() bool { return x.t != nil || x.v.IsValid() }

// fromGo makes the value of v, of type ti: a view of a struct, a non-nil slice or array, or a
// non-nil map with string keys; a term otherwise.
func (e *Eval) fromGo(v reflect.Value, ti *typeInfo) (value, error) {
	for !ti.viaMarshaler(v) {
		switch ti.kind {
		case reflect.Pointer:
			if v.IsNil() {
				return value{t: nullTerm}, nil
			}
			v, ti = v.Elem(), ti.elem
			continue
		case reflect.Interface:
			if v.IsNil() {
				return value{t: nullTerm}, nil
			}
			v = v.Elem()
			ti = infoOf(v.Type())
			continue
		case reflect.Struct, reflect.Array:
			return value{v: v, ti: ti}, nil
		case reflect.Slice:
			if !v.IsNil() && !ti.bytes {
				return value{v: v, ti: ti}, nil
			}
		case reflect.Map:
			if !v.IsNil() && ti.stringKey {
				return value{v: v, ti: ti}, nil
			}
		case reflect.String:
			if !v.CanAddr() {
				return value{t: ast.StringTerm(v.String())}, nil
			}
			return value{v: v, ti: ti}, nil // a string view: most are only compared
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			t, err := scalarTerm(v, ti)
			return value{t: t}, err
		}
		break
	}
	t, err := e.conv.term(v, ti)
	return value{t: t}, err
}

// isString reports whether x is a string view (a string field of the input).
func (x value) isString() bool {
	return x.t == nil && x.ti != nil && x.ti.kind == reflect.String
}

// stringTerm is the term of string view v: one per field (rules read the same names and GID
// types many times) and one per distinct string (intern).
func (e *Eval) stringTerm(v reflect.Value) *ast.Term {
	p := v.UnsafeAddr()
	t, ok := e.strings[p]
	if !ok {
		t = e.intern(v.String())
		e.strings[p] = t
	}
	return t
}

// stringOf is x's string, if x is a string term or view.
func stringOf(x value) (string, bool) {
	if x.t == nil {
		if x.isString() {
			return x.v.String(), true
		}
		return "", false
	}
	s, ok := x.t.Value.(ast.String)
	return string(s), ok
}

// intern returns the one term of string s in this evaluation, so that equal strings of the
// input are one term: calls memoized by argument identity then match on equal values.
func (e *Eval) intern(s string) *ast.Term {
	t, ok := e.interned[s]
	if !ok {
		t = ast.StringTerm(s)
		e.interned[s] = t
	}
	return t
}

type viewKey struct {
	ti *typeInfo
	p  uintptr
}

// term is x as a term: views are converted (once per addressable Go value and evaluation).
func (e *Eval) term(x value) (*ast.Term, error) {
	if x.t != nil || !x.v.IsValid() {
		return x.t, nil
	}
	if b := x.builder(); b != nil {
		return e.built(b)
	}
	if x.ti.kind == reflect.String {
		return e.stringTerm(x.v), nil
	}
	if !x.v.CanAddr() {
		return e.conv.term(x.v, x.ti)
	}
	k := viewKey{x.ti, x.v.UnsafeAddr()}
	if t, ok := e.views[k]; ok {
		return t, nil
	}
	t, err := e.conv.term(x.v, x.ti)
	if err == nil {
		e.views[k] = t
	}
	return t, err
}

// get is x[k]: ok is false where it is undefined.
func (e *Eval) get(x, k value) (r value, ok bool, err error) {
	if k.ti == builderInfo {
		if k, err = e.settle(k); err != nil {
			return value{}, false, err
		}
	}
	if k.isString() {
		k = value{t: e.stringTerm(k.v)}
	}
	if b := x.builder(); b != nil {
		n, isNum := numberTerm(k)
		if i, isInt := n.Int(); isNum && isInt && i >= 0 && i < len(b.elems) {
			return b.elems[i], true, nil
		}
		return value{}, false, nil
	}
	if x.t != nil {
		kt, err := e.term(k)
		if err != nil {
			return value{}, false, err
		}
		switch c := x.t.Value.(type) {
		case ast.Object:
			r := c.Get(kt)
			return value{t: r}, r != nil, nil
		case *ast.Array:
			r := c.Get(kt)
			return value{t: r}, r != nil, nil
		case ast.Set:
			if c.Contains(kt) {
				return value{t: kt}, true, nil
			}
		}
		return value{}, false, nil
	}
	if k.t == nil {
		return value{}, false, nil // a composite key: no struct, slice or map of ours has one
	}
	switch x.v.Kind() {
	case reflect.String:
		return value{}, false, nil
	case reflect.Struct:
		name, ok := k.t.Value.(ast.String)
		if !ok {
			return value{}, false, nil
		}
		i, ok := x.ti.byName[string(name)]
		if !ok {
			return value{}, false, nil
		}
		return e.field(x, &x.ti.fields[i])
	case reflect.Map:
		name, ok := k.t.Value.(ast.String)
		if !ok {
			return value{}, false, nil
		}
		mv := x.v.MapIndex(reflect.ValueOf(string(name)).Convert(x.v.Type().Key()))
		if !mv.IsValid() {
			return value{}, false, nil
		}
		r, err := e.fromGo(mv, x.ti.elem)
		return r, err == nil, err
	default: // slice or array
		n, ok := k.t.Value.(ast.Number)
		if !ok {
			return value{}, false, nil
		}
		i, ok := n.Int()
		if !ok || i < 0 || i >= x.v.Len() {
			return value{}, false, nil
		}
		r, err := e.fromGo(x.v.Index(i), x.ti.elem)
		return r, err == nil, err
	}
}

// field is field f of struct view x; ok is false where encoding/json omits it.
func (e *Eval) field(x value, f *jsonField) (r value, ok bool, err error) {
	fv := x.v.Field(f.index)
	if f.omitEmpty && isEmpty(fv) {
		return value{}, false, nil
	}
	r, err = e.fromGo(fv, f.info)
	return r, err == nil, err
}

// each calls f with the keys and values of x in the order OPA iterates them (object keys and set
// elements sorted, arrays by index) until f returns true. Scalars have none.
func (e *Eval) each(x value, f func(k, v value) (bool, error)) error {
	if x.t != nil {
		switch x.t.Value.(type) {
		case ast.Object, ast.Set:
			return e.eachTerm(x, f)
		}
	}
	return e.eachLocal(x, f)
}

// eachTerm is each for object and set terms, whose iteration takes a closure of OPA's: f escapes
// to the heap here, and only here.
func (e *Eval) eachTerm(x value, f func(k, v value) (bool, error)) error {
	var err error
	switch c := x.t.Value.(type) {
	case ast.Object:
		c.Until(func(k, v *ast.Term) bool {
			var stop bool
			stop, err = f(value{t: k}, value{t: v})
			return stop || err != nil
		})
	case ast.Set:
		c.Until(func(v *ast.Term) bool {
			var stop bool
			stop, err = f(value{t: v}, value{t: v})
			return stop || err != nil
		})
	}
	return err
}

// eachLocal is each for everything else: arrays, arrays under construction and views.
func (e *Eval) eachLocal(x value, f func(k, v value) (bool, error)) error {
	if b := x.builder(); b != nil {
		for i, v := range b.elems {
			if stop, err := f(value{t: ast.InternedTerm(i)}, v); stop || err != nil {
				return err
			}
		}
		return nil
	}
	if x.t != nil {
		if c, ok := x.t.Value.(*ast.Array); ok {
			for i := range c.Len() {
				if stop, err := f(value{t: ast.InternedTerm(i)}, value{t: c.Elem(i)}); stop || err != nil {
					return err
				}
			}
		}
		return nil // scalars have no elements
	}
	switch x.v.Kind() {
	case reflect.String:
	case reflect.Struct:
		for _, i := range x.ti.sorted {
			fd := &x.ti.fields[i]
			fv := x.v.Field(fd.index)
			if fd.omitEmpty && isEmpty(fv) {
				continue
			}
			v, err := e.fromGo(fv, fd.info)
			if err != nil {
				return err
			}
			if stop, err := f(value{t: fd.key}, v); stop || err != nil {
				return err
			}
		}
	case reflect.Map:
		keys := x.v.MapKeys()
		sort.Slice(keys, func(a, b int) bool { return keys[a].String() < keys[b].String() })
		for _, k := range keys {
			v, err := e.fromGo(x.v.MapIndex(k), x.ti.elem)
			if err != nil {
				return err
			}
			if stop, err := f(value{t: ast.StringTerm(k.String())}, v); stop || err != nil {
				return err
			}
		}
	default:
		for i := range x.v.Len() {
			v, err := e.fromGo(x.v.Index(i), x.ti.elem)
			if err != nil {
				return err
			}
			if stop, err := f(value{t: ast.InternedTerm(i)}, v); stop || err != nil {
				return err
			}
		}
	}
	return nil
}

// length is the number of elements of a collection or of characters of a string; ok is false
// for other values.
func length(x value) (n int, ok bool) {
	if b := x.builder(); b != nil {
		return len(b.elems), true
	}
	if x.t != nil {
		switch c := x.t.Value.(type) {
		case ast.Object:
			return c.Len(), true
		case *ast.Array:
			return c.Len(), true
		case ast.Set:
			return c.Len(), true
		case ast.String:
			return utf8.RuneCountInString(string(c)), true
		}
		return 0, false
	}
	switch x.v.Kind() {
	case reflect.String:
		return utf8.RuneCountInString(x.v.String()), true
	case reflect.Struct:
	default:
		return x.v.Len(), true
	}
	for _, f := range x.ti.fields {
		if !f.omitEmpty || !isEmpty(x.v.Field(f.index)) {
			n++
		}
	}
	return n, true
}

type kind int

const (
	kindOther kind = iota
	kindObject
	kindArray
	kindSet
)

func kindOf(x value) kind {
	if x.ti == builderInfo {
		return kindArray
	}
	if x.t != nil {
		switch x.t.Value.(type) {
		case ast.Object:
			return kindObject
		case *ast.Array:
			return kindArray
		case ast.Set:
			return kindSet
		}
		return kindOther
	}
	switch x.v.Kind() {
	case reflect.Struct, reflect.Map:
		return kindObject
	case reflect.Slice, reflect.Array:
		return kindArray
	}
	return kindOther
}

// numberTerm is x's number, if x is a number term.
func numberTerm(x value) (ast.Number, bool) {
	if x.t == nil {
		return "", false
	}
	n, ok := x.t.Value.(ast.Number)
	return n, ok
}

// sameGoValue reports whether views a and b show the same Go value (type and address).
func sameGoValue(a, b value) bool {
	return a.ti == b.ti && a.v.CanAddr() && b.v.CanAddr() && a.v.UnsafeAddr() == b.v.UnsafeAddr()
}

// equal reports whether a and b are the same Rego value (numbers by value).
func (e *Eval) equal(a, b value) (bool, error) {
	if as, ok := stringOf(a); ok {
		if bs, ok := stringOf(b); ok {
			return as == bs, nil
		}
	}
	if a.t == nil || b.t == nil {
		if kindOf(a) != kindOf(b) {
			return false, nil // `x != false`, the planner's truth test, on an array or view
		}
		if na, _ := length(a); a.t == nil && b.t == nil {
			if nb, _ := length(b); na != nb {
				return false, nil
			}
		}
	}
	if a.ti == builderInfo || b.ti == builderInfo {
		var err error
		if a, err = e.settle(a); err != nil {
			return false, err
		}
		if b, err = e.settle(b); err != nil {
			return false, err
		}
	}
	if a.t != nil && b.t != nil {
		return a.t == b.t || a.t.Value.Compare(b.t.Value) == 0, nil
	}
	if kindOf(a) != kindOf(b) {
		return false, nil
	}
	if a.t == nil && b.t == nil && sameGoValue(a, b) {
		return true, nil // one Go value: rules compare a port or device with itself in joins
	}
	if na, _ := length(a); a.t == nil || b.t == nil {
		if nb, _ := length(b); na != nb {
			return false, nil
		}
	}
	at, err := e.term(a)
	if err != nil {
		return false, err
	}
	bt, err := e.term(b)
	if err != nil {
		return false, err
	}
	return at.Value.Compare(bt.Value) == 0, nil
}
