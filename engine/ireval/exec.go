package ireval

import (
	"fmt"
	"reflect"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"
)

// Statements are compiled, once per function and on its first call, into ops: Go closures over
// the statement's operands, resolved callee and the like, which is several times faster than
// switching on the statement type at every step.
type op func(e *Eval, l []value) int

// block is a compiled ir.Block.
type block []op

// The outcome of an op or block: go on with the next statement, leave the function (a
// ReturnLocalStmt ran), stop the evaluation (e.err holds why), or a number n >= 0: leave the n+1
// innermost enclosing blocks (a statement that is undefined leaves its own block: 0).
const (
	next  = -1
	abort = 1 << 29
	leave = 1 << 30
)

// outer is the outcome for the enclosing statements once the innermost block is left.
func outer(br int) int {
	switch {
	case br == next || br >= abort:
		return br
	case br == 0:
		return next
	}
	return br - 1
}

// run runs b in the current block.
func (b block) run(e *Eval, l []value) int {
	for _, o := range b {
		if br := o(e, l); br != next {
			return br
		}
	}
	return next
}

// undefinedIf is the outcome of a statement that is undefined when cond holds.
func undefinedIf(cond bool) int {
	if cond {
		return 0
	}
	return next
}

// pushArgs reads the operands of a call into fresh locals on the evaluation's stack; the caller
// truncates the stack to base after the call.
func (e *Eval) pushArgs(l []value, args []operand) (vs []value, base int) {
	base = len(e.stack)
	vs = e.push(len(args))
	for i, a := range args {
		vs[i] = a.get(l)
	}
	return vs, base
}

// result ends an op that sets local t: err stops the evaluation, !ok makes the statement
// undefined, else t is r.
func (e *Eval) result(l []value, t int, r value, ok bool, err error) int {
	switch {
	case err != nil:
		return e.fail(err)
	case !ok:
		return 0
	}
	l[t] = r
	return next
}

// fail records err and stops the evaluation.
func (e *Eval) fail(err error) int {
	e.err = err
	return abort
}

// operand is a compiled ir.Operand: a local (local >= 0) or a constant.
type operand struct {
	local int
	c     value
}

func (o operand) get(l []value) value {
	if o.local >= 0 {
		return l[o.local]
	}
	return o.c
}

// compiler compiles the statements of one function or plan.
type compiler struct {
	prog  *Program
	fn    []*ir.Block      // the function's (or plan's) blocks
	reads map[ir.Local]int // how often each local is read in fn (see earlyExit), when needed
}

func (c *compiler) operand(o ir.Operand) operand {
	if l, ok := operandLocal(o); ok {
		return operand{local: int(l)}
	}
	switch v := o.Value.(type) {
	case ir.StringIndex:
		return operand{local: -1, c: value{t: c.prog.strings[v]}}
	case *ir.StringIndex:
		return operand{local: -1, c: value{t: c.prog.strings[*v]}}
	case ir.Bool:
		return operand{local: -1, c: value{t: ast.InternedTerm(bool(v))}}
	case *ir.Bool:
		return operand{local: -1, c: value{t: ast.InternedTerm(bool(*v))}}
	}
	return operand{local: -1}
}

// operandLocal is the local o reads, if it reads one. Operands decoded from a plan's JSON hold
// pointers (*ir.Local, ...), those the planner makes hold values.
func operandLocal(o ir.Operand) (ir.Local, bool) {
	switch v := o.Value.(type) {
	case ir.Local:
		return v, true
	case *ir.Local:
		return *v, true
	}
	return 0, false
}

func (c *compiler) blocks(bs []*ir.Block) ([]block, error) {
	out := make([]block, len(bs))
	for i, b := range bs {
		cb, err := c.block(b)
		if err != nil {
			return nil, err
		}
		out[i] = cb
	}
	return out, nil
}

func (c *compiler) block(b *ir.Block) (block, error) {
	out := make(block, 0, len(b.Stmts))
	for _, s := range b.Stmts {
		o, err := c.stmt(s)
		if err != nil {
			return nil, err
		}
		if o != nil {
			out = append(out, o)
		}
	}
	return out, nil
}

func (c *compiler) stmt(s ir.Stmt) (op, error) {
	switch s := s.(type) {
	case *ir.AssignVarStmt:
		src, t := c.operand(s.Source), int(s.Target)
		if src.local >= 0 {
			from := src.local
			return func(_ *Eval, l []value) int { l[t] = l[from]; return next }, nil
		}
		return func(_ *Eval, l []value) int { l[t] = src.c; return next }, nil
	case *ir.CallStmt:
		return c.call(s)
	case *ir.DotStmt:
		src, ok := operandLocal(s.Source)
		if !ok {
			return func(*Eval, []value) int { return 0 }, nil
		}
		return c.dot(int(src), c.operand(s.Key), int(s.Target)), nil
	case *ir.AssignVarOnceStmt:
		src, t := c.operand(s.Source), int(s.Target)
		return func(e *Eval, l []value) int {
			v := src.get(l)
			if cur := l[t]; cur.defined() {
				if eq, err := e.equal(cur, v); err != nil || !eq {
					return e.fail(conflict(err, "complete rules must not produce multiple outputs"))
				}
			}
			l[t] = v
			return next
		}, nil
	case *ir.ArrayAppendStmt:
		v, a := c.operand(s.Value), int(s.Array)
		return func(e *Eval, l []value) int {
			if b := l[a].builder(); b != nil {
				b.append(v.get(l))
				return next
			}
			t, err := e.term(v.get(l))
			if err != nil {
				return e.fail(err)
			}
			l[a] = value{t: ast.NewTerm(l[a].t.Value.(*ast.Array).Append(t))}
			return next
		}, nil
	case *ir.NotEqualStmt:
		a, b := c.operand(s.A), c.operand(s.B)
		return func(e *Eval, l []value) int {
			eq, err := e.equal(a.get(l), b.get(l))
			if err != nil {
				return e.fail(err)
			}
			return undefinedIf(eq)
		}, nil
	case *ir.EqualStmt:
		a, b := c.operand(s.A), c.operand(s.B)
		return func(e *Eval, l []value) int {
			eq, err := e.equal(a.get(l), b.get(l))
			if err != nil {
				return e.fail(err)
			}
			return undefinedIf(!eq)
		}, nil
	case *ir.ObjectInsertStmt:
		k, v, o := c.operand(s.Key), c.operand(s.Value), int(s.Object)
		return func(e *Eval, l []value) int {
			kt, vt, err := e.terms(k.get(l), v.get(l))
			if err != nil {
				return e.fail(err)
			}
			l[o].t.Value.(ast.Object).Insert(kt, vt)
			return next
		}, nil
	case *ir.ObjectInsertOnceStmt:
		k, v, o := c.operand(s.Key), c.operand(s.Value), int(s.Object)
		return func(e *Eval, l []value) int {
			kt, vt, err := e.terms(k.get(l), v.get(l))
			if err != nil {
				return e.fail(err)
			}
			obj := l[o].t.Value.(ast.Object)
			if cur := obj.Get(kt); cur != nil && cur.Value.Compare(vt.Value) != 0 {
				return e.fail(conflict(nil, "object keys must be unique"))
			}
			obj.Insert(kt, vt)
			return next
		}, nil
	case *ir.ResetLocalStmt:
		t := int(s.Target)
		return func(_ *Eval, l []value) int { l[t] = value{}; return next }, nil
	case *ir.MakeNumberRefStmt:
		return c.constant(int(s.Target), value{t: ast.NumberTerm(numberOf(c.prog.strings[s.Index]))}), nil
	case *ir.MakeNumberIntStmt:
		return c.constant(int(s.Target), value{t: ast.InternedTerm(int(s.Value))}), nil
	case *ir.AssignIntStmt:
		return c.constant(int(s.Target), value{t: ast.InternedTerm(int(s.Value))}), nil
	case *ir.MakeNullStmt:
		return c.constant(int(s.Target), value{t: nullTerm}), nil
	case *ir.MakeArrayStmt:
		t := int(s.Target)
		return func(e *Eval, l []value) int { l[t] = e.newBuilder(); return next }, nil
	case *ir.MakeObjectStmt:
		t := int(s.Target)
		return func(_ *Eval, l []value) int { l[t] = value{t: ast.NewTerm(ast.NewObject())}; return next }, nil
	case *ir.MakeSetStmt:
		t := int(s.Target)
		return func(_ *Eval, l []value) int { l[t] = value{t: ast.NewTerm(ast.NewSet())}; return next }, nil
	case *ir.ReturnLocalStmt:
		src := int(s.Source)
		return func(e *Eval, l []value) int { e.ret = l[src]; return leave }, nil
	case *ir.IsDefinedStmt:
		src := int(s.Source)
		return func(_ *Eval, l []value) int { return undefinedIf(!l[src].defined()) }, nil
	case *ir.IsUndefinedStmt:
		src := int(s.Source)
		return func(_ *Eval, l []value) int { return undefinedIf(l[src].defined()) }, nil
	case *ir.ScanStmt:
		return c.scan(s)
	case *ir.BlockStmt:
		bs, err := c.blocks(s.Blocks)
		if err != nil {
			return nil, err
		}
		return func(e *Eval, l []value) int {
			for _, b := range bs {
				if br := outer(b.run(e, l)); br != next {
					return br
				}
			}
			return next
		}, nil
	case *ir.NotStmt:
		b, err := c.block(s.Block)
		if err != nil {
			return nil, err
		}
		return func(e *Eval, l []value) int {
			if br := b.run(e, l); br != next {
				return outer(br)
			}
			return 0 // the negated block is defined
		}, nil
	case *ir.SetAddStmt:
		v, set := c.operand(s.Value), int(s.Set)
		return func(e *Eval, l []value) int {
			t, err := e.term(v.get(l))
			if err != nil {
				return e.fail(err)
			}
			l[set].t.Value.(ast.Set).Add(t)
			return next
		}, nil
	case *ir.ResultSetAddStmt:
		src := int(s.Value)
		return func(e *Eval, l []value) int {
			t, err := e.term(l[src])
			if err != nil {
				return e.fail(err)
			}
			e.results = append(e.results, t)
			return next
		}, nil
	case *ir.BreakStmt:
		n := int(s.Index)
		return func(*Eval, []value) int { return n }, nil
	case *ir.IsArrayStmt:
		return c.isKind(s.Source, kindArray), nil
	case *ir.IsObjectStmt:
		return c.isKind(s.Source, kindObject), nil
	case *ir.IsSetStmt:
		return c.isKind(s.Source, kindSet), nil
	case *ir.LenStmt:
		src, t := c.operand(s.Source), int(s.Target)
		return func(_ *Eval, l []value) int {
			n, ok := length(src.get(l))
			if !ok {
				return 0
			}
			l[t] = value{t: ast.InternedTerm(n)}
			return next
		}, nil
	case *ir.ObjectMergeStmt:
		a, b, t := operand{local: int(s.A)}, operand{local: int(s.B)}, int(s.Target)
		return func(e *Eval, l []value) int {
			at, bt, err := e.terms(a.get(l), b.get(l))
			if err != nil {
				return e.fail(err)
			}
			ao, aok := at.Value.(ast.Object)
			bo, bok := bt.Value.(ast.Object)
			if !aok || !bok {
				return 0
			}
			m, ok := ao.Merge(bo)
			if !ok {
				return e.fail(conflict(nil, "objects cannot be merged"))
			}
			l[t] = value{t: ast.NewTerm(m)}
			return next
		}, nil
	case *ir.WithStmt:
		return c.with(s)
	case *ir.NopStmt:
		return nil, nil
	}
	return nil, fmt.Errorf("statement %T is not supported", s)
}

func (c *compiler) constant(t int, v value) op {
	return func(_ *Eval, l []value) int { l[t] = v; return next }
}

func (c *compiler) isKind(o ir.Operand, k kind) op {
	src, ok := operandLocal(o)
	if !ok {
		return func(*Eval, []value) int { return 0 }
	}
	return func(_ *Eval, l []value) int { return undefinedIf(kindOf(l[src]) != k) }
}

// fieldCache remembers, per statement, the field a constant key names in the struct type seen
// last (views of one type are read in loops).
type fieldCache struct {
	ti  *typeInfo
	idx int
	ok  bool
}

// constField looks up a constant key in struct views through a fieldCache of its own.
type constField struct {
	name  string
	cache atomic.Pointer[fieldCache]
}

// newConstField returns a constField for key when it is a constant string, nil otherwise.
func newConstField(key operand) *constField {
	if key.local < 0 && key.c.t != nil {
		if s, ok := key.c.t.Value.(ast.String); ok {
			return &constField{name: string(s)}
		}
	}
	return nil
}

// get is field name of x; handled is false when x is not a struct view.
func (cf *constField) get(e *Eval, x value) (r value, ok, handled bool, err error) {
	if cf == nil || x.t != nil || !x.v.IsValid() || x.ti.kind != reflect.Struct {
		return value{}, false, false, nil
	}
	fc := cf.cache.Load()
	if fc == nil || fc.ti != x.ti {
		idx, ok := x.ti.byName[cf.name]
		fc = &fieldCache{ti: x.ti, idx: idx, ok: ok}
		cf.cache.Store(fc)
	}
	if !fc.ok {
		return value{}, false, true, nil
	}
	r, ok, err = e.field(x, &x.ti.fields[fc.idx])
	return r, ok, true, err
}

func (c *compiler) dot(src int, key operand, t int) op {
	cf := newConstField(key)
	return func(e *Eval, l []value) int {
		x := l[src]
		r, ok, handled, err := cf.get(e, x)
		if !handled {
			r, ok, err = e.get(x, key.get(l))
		}
		return e.result(l, t, r, ok, err)
	}
}

// objectGet is object.get(x, constant key, default) on struct views without a map lookup.
func (c *compiler) objectGet(x, key, dflt operand, t int) op {
	cf := newConstField(key)
	return func(e *Eval, l []value) int {
		obj := x.get(l)
		r, ok, handled, err := cf.get(e, obj)
		switch {
		case !handled:
			r, ok, err = nativeObjectGet(e, obj, key.get(l), dflt.get(l))
		case !ok:
			r, ok = dflt.get(l), true
		}
		return e.result(l, t, r, ok, err)
	}
}

func (c *compiler) call(s *ir.CallStmt) (op, error) {
	args := make([]operand, len(s.Args))
	for i, a := range s.Args {
		args[i] = c.operand(a)
	}
	t := int(s.Result)
	if f := c.prog.funcs[s.Func]; f != nil {
		return func(e *Eval, l []value) int {
			vs, base := e.pushArgs(l, args)
			r, err := e.call(f, vs)
			e.stack = e.stack[:base]
			return e.result(l, t, r, r.defined(), err)
		}, nil
	}
	if s.Func == "object.get" && len(args) == 3 && newConstField(args[1]) != nil {
		return c.objectGet(args[0], args[1], args[2], t), nil
	}
	if nf := natives[s.Func]; nf != nil && nativeArity[s.Func] == len(args) {
		ops := [3]operand{{local: -1}, {local: -1}, {local: -1}}
		copy(ops[:], args)
		x, y, z := ops[0], ops[1], ops[2]
		return func(e *Eval, l []value) int {
			r, ok, err := nf(e, x.get(l), y.get(l), z.get(l))
			return e.result(l, t, r, ok, err)
		}, nil
	}
	bf := c.prog.builtin(s.Func)
	if bf == nil {
		return nil, fmt.Errorf("call of unknown function %s", s.Func)
	}
	name := s.Func
	return func(e *Eval, l []value) int {
		vs, base := e.pushArgs(l, args)
		r, ok, err := e.callBuiltin(name, bf, vs)
		e.stack = e.stack[:base]
		return e.result(l, t, r, ok, err)
	}, nil
}

// scan runs the body for every key and value of the source. The body is a loop: leaving it goes
// on with the next element; leaving it and the block around the loop ends the scan.
func (c *compiler) scan(s *ir.ScanStmt) (op, error) {
	body, err := c.block(s.Block)
	if err != nil {
		return nil, err
	}
	st := scanStmt{body: body, key: int(s.Key), val: int(s.Value), exit: -1}
	if setsConstant(s.Block) { // most scans build collections: skip the analysis for them
		if c.reads == nil {
			c.reads = localReads(c.fn)
		}
		st.exit = int(earlyExit(s, c.reads))
	}
	src := int(s.Source)
	return func(e *Eval, l []value) int {
		stopWhenSet := st.exit >= 0 && !l[st.exit].defined()
		var err error
		out := next
		if x := l[src]; x.t != nil && isObjectOrSet(x.t) {
			run := &scanRun{scanStmt: &st, e: e, l: l, out: next, stopWhenSet: stopWhenSet}
			err, out = e.eachTerm(x, run.visit), run.out
		} else {
			run := scanRun{scanStmt: &st, e: e, l: l, out: next, stopWhenSet: stopWhenSet}
			err, out = e.eachLocal(x, run.visit), run.out
		}
		if err != nil {
			return e.fail(err)
		}
		return out
	}, nil
}

// scanStmt is a compiled ScanStmt; exit is the local of an existential scan (earlyExit), or -1.
type scanStmt struct {
	body           block
	key, val, exit int
}

// scanRun is one execution of a scan: visit runs the body for one element.
type scanRun struct {
	*scanStmt
	e           *Eval
	l           []value
	out         int
	stopWhenSet bool
}

func (r *scanRun) visit(k, v value) (bool, error) {
	r.l[r.key], r.l[r.val] = k, v
	switch br := r.body.run(r.e, r.l); {
	case br == next || br == 0:
		return r.stopWhenSet && r.l[r.exit].defined(), nil
	case br >= abort:
		r.out = br
	default:
		r.out = outer(br - 1)
	}
	return true, nil
}

func isObjectOrSet(t *ast.Term) bool {
	switch t.Value.(type) {
	case ast.Object, ast.Set:
		return true
	}
	return false
}

// with runs the block with the local (input or data) replaced, or a path in it upserted, and
// fresh memoized results; it is undefined when the block is.
func (c *compiler) with(s *ir.WithStmt) (op, error) {
	body, err := c.block(s.Block)
	if err != nil {
		return nil, err
	}
	local, val := int(s.Local), c.operand(s.Value)
	path := make([]*ast.Term, len(s.Path))
	for i, p := range s.Path {
		path[i] = c.prog.strings[p]
	}
	return func(e *Eval, l []value) int {
		old := l[local]
		v := val.get(l)
		if len(path) > 0 {
			base, vt, err := e.terms(old, v)
			if err != nil {
				return e.fail(err)
			}
			v = value{t: upsert(base, path, vt)}
		}
		memo, byArgs := e.memo, e.byArgs
		e.memo, e.byArgs = make([]memoEntry, len(memo)), map[argsKey]value{}
		l[local] = v
		br := body.run(e, l)
		l[local] = old
		e.memo, e.byArgs = memo, byArgs
		if br == next || br == 0 {
			return br
		}
		return outer(br)
	}, nil
}

func conflict(err error, msg string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("eval_conflict_error: %s", msg)
}

func (e *Eval) terms(a, b value) (*ast.Term, *ast.Term, error) {
	at, err := e.term(a)
	if err != nil {
		return nil, nil, err
	}
	bt, err := e.term(b)
	return at, bt, err
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
