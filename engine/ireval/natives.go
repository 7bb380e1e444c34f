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
type native func(e *Eval, args []value) (r value, ok bool, err error)

var natives = map[string]native{
	"equal":             func(e *Eval, a []value) (value, bool, error) { return e.compared(a, eqOp) },
	"neq":               func(e *Eval, a []value) (value, bool, error) { return e.compared(a, neqOp) },
	"gt":                func(e *Eval, a []value) (value, bool, error) { return e.compared(a, gtOp) },
	"gte":               func(e *Eval, a []value) (value, bool, error) { return e.compared(a, gteOp) },
	"lt":                func(e *Eval, a []value) (value, bool, error) { return e.compared(a, ltOp) },
	"lte":               func(e *Eval, a []value) (value, bool, error) { return e.compared(a, lteOp) },
	"count":             nativeCount,
	"object.get":        nativeObjectGet,
	"internal.member_2": nativeMember,
	"startswith":        nativeStartsWith,
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
func (e *Eval) compared(args []value, op cmpOp) (value, bool, error) {
	a, b, err := e.terms(args[0], args[1])
	if err != nil {
		return value{}, false, err
	}
	switch op {
	case eqOp:
		return boolValue(a.Equal(b)), true, nil
	case neqOp:
		return boolValue(!a.Equal(b)), true, nil
	}
	c := a.Value.Compare(b.Value)
	switch op {
	case gtOp:
		return boolValue(c > 0), true, nil
	case gteOp:
		return boolValue(c >= 0), true, nil
	case ltOp:
		return boolValue(c < 0), true, nil
	}
	return boolValue(c <= 0), true, nil
}

// nativeCount is count: the length of an array, object, set or string (in characters).
func nativeCount(_ *Eval, args []value) (value, bool, error) {
	n, ok := length(args[0])
	if !ok {
		return value{}, false, nil
	}
	return value{t: ast.InternedTerm(n)}, true, nil
}

// nativeObjectGet is object.get(object, key or path, default).
func nativeObjectGet(e *Eval, args []value) (value, bool, error) {
	if kindOf(args[0]) != kindObject {
		return value{}, false, nil
	}
	cur, found, err := args[0], true, error(nil)
	if path, isPath := pathOf(args[1]); isPath {
		for i := 0; found && i < path.Len(); i++ {
			cur, found, err = e.get(cur, value{t: path.Elem(i)})
		}
	} else {
		cur, found, err = e.get(cur, args[1])
	}
	if err != nil {
		return value{}, false, err
	}
	if !found {
		cur = args[2]
	}
	return cur, true, nil
}

// nativeMember is `x in collection`: a set holds x, or an array or object has it as a value.
func nativeMember(e *Eval, args []value) (value, bool, error) {
	x, coll := args[0], args[1]
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
func nativeStartsWith(_ *Eval, args []value) (value, bool, error) {
	s, ok1 := stringOf(args[0])
	p, ok2 := stringOf(args[1])
	if !ok1 || !ok2 {
		return value{}, false, nil
	}
	return boolValue(strings.HasPrefix(s, p)), true, nil
}

func stringOf(x value) (string, bool) {
	if x.t == nil {
		return "", false
	}
	s, ok := x.t.Value.(ast.String)
	return string(s), ok
}
