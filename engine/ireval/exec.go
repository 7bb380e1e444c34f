package ireval

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"
)

// The outcome of running statements: go on with the next statement, leave the function (a
// ReturnLocalStmt ran), or a number n >= 0: leave the n+1 innermost enclosing blocks (a statement
// that is undefined leaves its own block: 0).
const (
	next  = -1
	leave = 1 << 30
)

// outer is the outcome for the enclosing statements once the innermost block is left.
func outer(br int) int {
	switch {
	case br == next || br == leave:
		return br
	case br == 0:
		return next
	}
	return br - 1
}

// block runs stmts as a block of their own.
func (e *Eval) block(locals []value, stmts []ir.Stmt) (int, error) {
	br, err := e.run(locals, stmts)
	return outer(br), err
}

// run runs stmts in the current block.
func (e *Eval) run(locals []value, stmts []ir.Stmt) (int, error) {
	for _, s := range stmts {
		br, err := e.stmt(locals, s)
		if err != nil || br != next {
			return br, err
		}
	}
	return next, nil
}

// operand reads o. Operands decoded from a plan's JSON hold pointers (*ir.Local, ...), those
// the planner makes hold values.
func (e *Eval) operand(locals []value, o ir.Operand) value {
	switch v := o.Value.(type) {
	case ir.Local:
		return locals[v]
	case ir.StringIndex:
		return value{t: e.prog.strings[v]}
	case ir.Bool:
		return value{t: ast.InternedTerm(bool(v))}
	case *ir.Local:
		return locals[*v]
	case *ir.StringIndex:
		return value{t: e.prog.strings[*v]}
	case *ir.Bool:
		return value{t: ast.InternedTerm(bool(*v))}
	}
	return value{}
}

// operandLocal is the local o reads, if it reads one.
func operandLocal(o ir.Operand) (ir.Local, bool) {
	switch v := o.Value.(type) {
	case ir.Local:
		return v, true
	case *ir.Local:
		return *v, true
	}
	return 0, false
}

// undefinedIf is the outcome of a statement that is undefined when cond holds.
func undefinedIf(cond bool) int {
	if cond {
		return 0
	}
	return next
}

func (e *Eval) stmt(locals []value, s ir.Stmt) (int, error) {
	switch s := s.(type) {
	case *ir.AssignVarStmt:
		locals[s.Target] = e.operand(locals, s.Source)
	case *ir.CallStmt:
		return e.callStmt(locals, s)
	case *ir.DotStmt:
		src, ok := operandLocal(s.Source)
		if !ok {
			return 0, nil
		}
		r, ok, err := e.get(locals[src], e.operand(locals, s.Key))
		if err != nil || !ok {
			return 0, err
		}
		locals[s.Target] = r
	case *ir.AssignVarOnceStmt:
		src := e.operand(locals, s.Source)
		if cur := locals[s.Target]; cur.defined() {
			if eq, err := e.equal(cur, src); err != nil || !eq {
				return 0, conflict(err, "complete rules must not produce multiple outputs")
			}
		}
		locals[s.Target] = src
	case *ir.ArrayAppendStmt:
		t, err := e.term(e.operand(locals, s.Value))
		if err != nil {
			return 0, err
		}
		arr := locals[s.Array].t.Value.(*ast.Array)
		locals[s.Array] = value{t: ast.NewTerm(arr.Append(t))}
	case *ir.NotEqualStmt:
		eq, err := e.equal(e.operand(locals, s.A), e.operand(locals, s.B))
		return undefinedIf(eq), err
	case *ir.EqualStmt:
		eq, err := e.equal(e.operand(locals, s.A), e.operand(locals, s.B))
		return undefinedIf(!eq), err
	case *ir.ObjectInsertStmt:
		k, v, err := e.terms(locals, s.Key, s.Value)
		if err != nil {
			return 0, err
		}
		locals[s.Object].t.Value.(ast.Object).Insert(k, v)
	case *ir.ObjectInsertOnceStmt:
		k, v, err := e.terms(locals, s.Key, s.Value)
		if err != nil {
			return 0, err
		}
		obj := locals[s.Object].t.Value.(ast.Object)
		if cur := obj.Get(k); cur != nil && cur.Value.Compare(v.Value) != 0 {
			return 0, conflict(nil, "object keys must be unique")
		}
		obj.Insert(k, v)
	case *ir.ResetLocalStmt:
		locals[s.Target] = value{}
	case *ir.MakeNumberRefStmt:
		locals[s.Target] = value{t: e.prog.numbers[s.Index]}
	case *ir.MakeArrayStmt:
		locals[s.Target] = value{t: ast.NewTerm(ast.NewArray())}
	case *ir.MakeObjectStmt:
		locals[s.Target] = value{t: ast.NewTerm(ast.NewObject())}
	case *ir.MakeSetStmt:
		locals[s.Target] = value{t: ast.NewTerm(ast.NewSet())}
	case *ir.MakeNullStmt:
		locals[s.Target] = value{t: nullTerm}
	case *ir.MakeNumberIntStmt:
		locals[s.Target] = value{t: ast.InternedTerm(int(s.Value))}
	case *ir.AssignIntStmt:
		locals[s.Target] = value{t: ast.InternedTerm(int(s.Value))}
	case *ir.ReturnLocalStmt:
		e.ret = locals[s.Source]
		return leave, nil
	case *ir.IsDefinedStmt:
		return undefinedIf(!locals[s.Source].defined()), nil
	case *ir.IsUndefinedStmt:
		return undefinedIf(locals[s.Source].defined()), nil
	case *ir.ScanStmt:
		return e.scan(locals, s)
	case *ir.BlockStmt:
		for _, b := range s.Blocks {
			if br, err := e.block(locals, b.Stmts); err != nil || br != next {
				return br, err
			}
		}
	case *ir.NotStmt:
		br, err := e.run(locals, s.Block.Stmts)
		switch {
		case err != nil:
			return 0, err
		case br == next: // the negated block is defined
			return 0, nil
		}
		return outer(br), nil
	case *ir.SetAddStmt:
		t, err := e.term(e.operand(locals, s.Value))
		if err != nil {
			return 0, err
		}
		locals[s.Set].t.Value.(ast.Set).Add(t)
	case *ir.ResultSetAddStmt:
		t, err := e.term(locals[s.Value])
		if err != nil {
			return 0, err
		}
		e.results = append(e.results, t)
	case *ir.BreakStmt:
		return int(s.Index), nil
	case *ir.IsArrayStmt:
		return e.isKind(locals, s.Source, kindArray), nil
	case *ir.IsObjectStmt:
		return e.isKind(locals, s.Source, kindObject), nil
	case *ir.IsSetStmt:
		return e.isKind(locals, s.Source, kindSet), nil
	case *ir.LenStmt:
		n, ok := length(e.operand(locals, s.Source))
		if !ok {
			return 0, nil
		}
		locals[s.Target] = value{t: ast.InternedTerm(n)}
	case *ir.ObjectMergeStmt:
		a, b, err := e.terms(locals, ir.Operand{Value: s.A}, ir.Operand{Value: s.B})
		if err != nil {
			return 0, err
		}
		ao, aok := a.Value.(ast.Object)
		bo, bok := b.Value.(ast.Object)
		if !aok || !bok {
			return 0, nil
		}
		m, ok := ao.Merge(bo)
		if !ok {
			return 0, conflict(nil, "objects cannot be merged")
		}
		locals[s.Target] = value{t: ast.NewTerm(m)}
	case *ir.WithStmt:
		return e.with(locals, s)
	case *ir.NopStmt:
	default:
		return 0, fmt.Errorf("statement %T is not supported", s)
	}
	return next, nil
}

func conflict(err error, msg string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("eval_conflict_error: %s", msg)
}

func (e *Eval) terms(locals []value, a, b ir.Operand) (*ast.Term, *ast.Term, error) {
	at, err := e.term(e.operand(locals, a))
	if err != nil {
		return nil, nil, err
	}
	bt, err := e.term(e.operand(locals, b))
	return at, bt, err
}

func (e *Eval) isKind(locals []value, o ir.Operand, k kind) int {
	src, ok := operandLocal(o)
	return undefinedIf(!ok || kindOf(locals[src]) != k)
}

func (e *Eval) callStmt(locals []value, s *ir.CallStmt) (int, error) {
	var buf [4]value
	args := buf[:0]
	for _, a := range s.Args {
		args = append(args, e.operand(locals, a))
	}
	if f := e.prog.funcs[s.Func]; f != nil {
		r, err := e.call(f, args)
		if err != nil || !r.defined() {
			return 0, err
		}
		locals[s.Result] = r
		return next, nil
	}
	r, ok, err := e.callBuiltin(s.Func, e.prog.builtins[s.Func], args)
	if err != nil || !ok {
		return 0, err
	}
	locals[s.Result] = r
	return next, nil
}

// scan runs the body of s for every key and value of its source. The body is a loop: leaving it
// goes on with the next element; leaving it and the block around the loop ends the scan.
func (e *Eval) scan(locals []value, s *ir.ScanStmt) (int, error) {
	out := next
	err := e.each(locals[s.Source], func(k, v value) (bool, error) {
		locals[s.Key], locals[s.Value] = k, v
		br, err := e.run(locals, s.Block.Stmts)
		if err != nil {
			return true, err
		}
		switch {
		case br == next || br == 0:
			return false, nil
		case br == leave:
			out = leave
		default:
			out = outer(br - 1)
		}
		return true, nil
	})
	return out, err
}

// with runs the block of s with the local (input or data) replaced, or a path in it upserted,
// and fresh memoized results; it is undefined when the block is.
func (e *Eval) with(locals []value, s *ir.WithStmt) (int, error) {
	old := locals[s.Local]
	v := e.operand(locals, s.Value)
	if len(s.Path) > 0 {
		base, err := e.term(old)
		if err != nil {
			return 0, err
		}
		vt, err := e.term(v)
		if err != nil {
			return 0, err
		}
		path := make([]*ast.Term, len(s.Path))
		for i, p := range s.Path {
			path[i] = e.prog.strings[p]
		}
		v = value{t: upsert(base, path, vt)}
	}
	memo := e.memo
	e.memo = make([]memoEntry, len(memo))
	locals[s.Local] = v
	br, err := e.run(locals, s.Block.Stmts)
	locals[s.Local] = old
	e.memo = memo
	switch {
	case err != nil:
		return 0, err
	case br == next:
		return next, nil
	case br == 0:
		return 0, nil
	}
	return outer(br), nil
}

// upsert is a copy of base (an object, or a new one) with v at path.
func upsert(base *ast.Term, path []*ast.Term, v *ast.Term) *ast.Term {
	obj := ast.NewObject()
	if base != nil {
		if o, ok := base.Value.(ast.Object); ok {
			obj = o.Copy()
		}
	}
	if len(path) == 1 {
		obj.Insert(path[0], v)
	} else {
		obj.Insert(path[0], upsert(obj.Get(path[0]), path[1:], v))
	}
	return ast.NewTerm(obj)
}
