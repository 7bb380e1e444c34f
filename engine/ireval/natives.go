package ireval

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// A native is a built-in function evaluated here rather than by OPA's implementation, for the
// ones rules call in their inner loops: no operand conversion (views stay views), no context, no
// error value for the type errors that make the call undefined. Each follows OPA's
// implementation (topdown/comparison.go, aggregates.go, strings.go, object.go) exactly;
// TestNativesMatchOPA holds them equal on a table of cases.
// The operands are x, y and z (unused ones are undefined), passed by value: a slice would escape
// to the heap at every call.
type native func(e *Eval, x, y, z value) (r value, ok bool, err error)

var natives = map[string]native{
	"equal":             func(e *Eval, x, y, _ value) (value, bool, error) { return e.compared(x, y, eqOp) },
	"neq":               func(e *Eval, x, y, _ value) (value, bool, error) { return e.compared(x, y, neqOp) },
	"gt":                func(e *Eval, x, y, _ value) (value, bool, error) { return e.compared(x, y, gtOp) },
	"gte":               func(e *Eval, x, y, _ value) (value, bool, error) { return e.compared(x, y, gteOp) },
	"lt":                func(e *Eval, x, y, _ value) (value, bool, error) { return e.compared(x, y, ltOp) },
	"lte":               func(e *Eval, x, y, _ value) (value, bool, error) { return e.compared(x, y, lteOp) },
	"count":             nativeCount,
	"object.get":        nativeObjectGet,
	"internal.member_2": nativeMember,
	"startswith":        nativeStartsWith,
}

// nativeArity is the number of operands of each native.
var nativeArity = map[string]int{
	"equal": 2, "neq": 2, "gt": 2, "gte": 2, "lt": 2, "lte": 2, "count": 1, "object.get": 3,
	"internal.member_2": 2, "startswith": 2,
}

type cmpOp int

const (
	eqOp cmpOp = iota
	neqOp
	gtOp
	gteOp
	ltOp
	lteOp
)

func boolValue(b bool) value { return value{t: ast.InternedTerm(b)} }

// compared is OPA's equal, neq, gt, gte, lt and lte: defined for any two values.
func (e *Eval) compared(x, y value, op cmpOp) (value, bool, error) {
	if xs, ok := stringOf(x); ok {
		if ys, ok := stringOf(y); ok {
			return boolValue(cmpResult(op, strings.Compare(xs, ys))), true, nil
		}
	}
	a, b, err := e.terms(x, y)
	if err != nil {
		return value{}, false, err
	}
	switch op {
	case eqOp:
		return boolValue(a.Equal(b)), true, nil
	case neqOp:
		return boolValue(!a.Equal(b)), true, nil
	}
	return boolValue(cmpResult(op, a.Value.Compare(b.Value))), true, nil
}

// cmpResult is the outcome of comparison op on two values that compare as c (<0, 0, >0).
func cmpResult(op cmpOp, c int) bool {
	switch op {
	case eqOp:
		return c == 0
	case neqOp:
		return c != 0
	case gtOp:
		return c > 0
	case gteOp:
		return c >= 0
	case ltOp:
		return c < 0
	}
	return c <= 0
}

// nativeCount is count: the length of an array, object, set or string (in characters).
func nativeCount(_ *Eval, x, _, _ value) (value, bool, error) {
	n, ok := length(x)
	if !ok {
		return value{}, false, nil
	}
	return value{t: ast.InternedTerm(n)}, true, nil
}

// nativeObjectGet is object.get(object, key or path, default).
func nativeObjectGet(e *Eval, obj, key, dflt value) (value, bool, error) {
	if kindOf(obj) != kindObject {
		return value{}, false, nil
	}
	key, err := e.settle(key)
	if err != nil {
		return value{}, false, err
	}
	cur, found := obj, true
	if path, isPath := pathOf(key); isPath {
		for i := 0; found && i < path.Len(); i++ {
			cur, found, err = e.get(cur, value{t: path.Elem(i)})
		}
	} else {
		cur, found, err = e.get(cur, key)
	}
	if err != nil {
		return value{}, false, err
	}
	if !found {
		cur = dflt
	}
	return cur, true, nil
}

// nativeMember is `x in collection`: a set holds x, or an array or object has it as a value.
func nativeMember(e *Eval, x, coll, _ value) (value, bool, error) {
	if coll.t != nil {
		if s, ok := coll.t.Value.(ast.Set); ok {
			xt, err := e.term(x)
			if err != nil {
				return value{}, false, err
			}
			return boolValue(s.Contains(xt)), true, nil
		}
	}
	switch kindOf(coll) {
	case kindArray, kindObject:
	default:
		return boolValue(false), true, nil
	}
	found := false
	err := e.each(coll, func(_, v value) (bool, error) {
		eq, err := e.equal(x, v)
		found = eq
		return eq || err != nil, err
	})
	if err != nil {
		return value{}, false, err
	}
	return boolValue(found), true, nil
}

// nativeStartsWith is startswith(string, prefix).
func nativeStartsWith(_ *Eval, x, prefix, _ value) (value, bool, error) {
	s, ok1 := stringOf(x)
	p, ok2 := stringOf(prefix)
	if !ok1 || !ok2 {
		return value{}, false, nil
	}
	return boolValue(strings.HasPrefix(s, p)), true, nil
}
