package ireval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/builtins"
)

// Eval evaluates plans of a Program on one input and data document. The results of functions
// of input and data alone are kept between runs. Not safe for concurrent use.
type Eval struct {
	prog    *Program
	ctx     context.Context
	input   value
	data    value
	conv    Converter
	views   map[viewKey]*ast.Term
	memo    []memoEntry
	byArgs  map[argsKey]value
	stack   []value
	results []*ast.Term
	bctx    topdown.BuiltinContext
	args    []*ast.Term
	ret     value
	err     error // why the evaluation stopped (abort)
	// out receives a built-in function's result through setOut, made once: a closure per call
	// would be allocated per call.
	out    *ast.Term
	setOut func(*ast.Term) error
	// strings holds the terms of the input's string fields by address: rules read the same
	// fields (names, GID types) many times.
	strings  map[uintptr]*ast.Term
	interned map[string]*ast.Term
	// usedBuilders are the arrayBuilders of this evaluation, spareBuilders those of earlier
	// ones, for newBuilder.
	usedBuilders, spareBuilders []*arrayBuilder
}

type memoEntry struct {
	done bool
	v    value
}

// argsKey identifies a call of a function with arguments by the identity of its arguments
// (beyond input and data): the Go value a view shows, or the term. Rego functions depend on
// nothing else, so equal keys have equal results; rules call helpers such as "is this port
// RoCE" on the same port many times, from many rules.
type argsKey struct {
	fn   int
	args [maxMemoArgs]argKey
}

type argKey struct {
	ti *typeInfo
	p  uintptr
	t  *ast.Term
}

const maxMemoArgs = 2 // beyond input and data: 399 of the 408 functions of the built-in rules

// keyOf returns the argsKey of a call of f with args; ok is false when an argument has no
// identity (a view of a value that is not addressable) or there are too many.
func (e *Eval) keyOf(f *function, args []value) (k argsKey, ok bool) {
	if len(args) < 2 || len(args)-2 > maxMemoArgs {
		return k, false
	}
	k.fn = f.index
	for i, a := range args[2:] {
		switch {
		case a.t != nil:
			k.args[i].t = a.t
		case a.isString():
			k.args[i].t = e.stringTerm(a.v) // equal strings, one key
		case a.v.IsValid() && a.v.CanAddr():
			k.args[i].ti, k.args[i].p = a.ti, a.v.UnsafeAddr()
		default:
			return k, false
		}
	}
	return k, true
}

// Options of an evaluation.
type Options struct {
	// Shared is passed on to the Converter of Go input values (see Converter.Shared).
	Shared reflect.Type
}

// NewEval starts an evaluation. input is an *ast.Term, or a Go value that the plans see as
// encoding/json would encode it (it must not change during the evaluation); data is the data
// document (nil: empty).
func (p *Program) NewEval(ctx context.Context, input any, data *ast.Term, opts Options) (*Eval, error) {
	e := &Eval{
		prog:     p,
		views:    make(map[viewKey]*ast.Term, 16),
		memo:     make([]memoEntry, p.nfuncs),
		byArgs:   make(map[argsKey]value, 512),
		strings:  make(map[uintptr]*ast.Term, 1024),
		interned: make(map[string]*ast.Term, 256),
	}
	e.setOut = func(t *ast.Term) error { e.out = t; return nil }
	return e, e.Reset(ctx, input, data, opts)
}

// Reset starts a new evaluation with e's memory, as NewEval would: a process that diagnoses
// many snapshots reuses its evaluations (see engine's pool) instead of growing new maps for
// each.
func (e *Eval) Reset(ctx context.Context, input any, data *ast.Term, opts Options) error {
	e.ctx = ctx
	e.conv = Converter{Shared: opts.Shared}
	e.spareBuilders = append(e.spareBuilders, e.usedBuilders...)
	e.usedBuilders = e.usedBuilders[:0]
	clear(e.views)
	clear(e.memo)
	clear(e.byArgs)
	clear(e.strings)
	clear(e.interned)
	e.stack, e.results, e.args, e.err, e.out = e.stack[:0], nil, e.args[:0], nil, nil
	e.ret, e.input = value{}, value{}
	if data == nil {
		data = ast.ObjectTerm()
	}
	e.data = termValue(data)
	switch in := input.(type) {
	case *ast.Term:
		e.input = termValue(in)
	case nil:
	default:
		rv := reflect.ValueOf(in)
		v, err := e.fromGo(rv, infoOf(rv.Type()))
		if err != nil {
			return err
		}
		e.input = v
	}
	e.bctx = topdown.BuiltinContext{
		Context:  ctx,
		Time:     ast.NumberTerm(json.Number(fmt.Sprint(time.Now().UnixNano()))),
		Cache:    builtins.Cache{},
		Location: &ast.Location{},
	}
	return nil
}

// Run evaluates the plan name and returns its result set: the values its ResultSetAddStmts
// added (for a plan of a rule, objects {"result": value}), in that order.
func (e *Eval) Run(name string) ([]*ast.Term, error) {
	pl := e.prog.plans[name]
	if pl == nil {
		return nil, fmt.Errorf("ireval: no plan %s", name)
	}
	if err := e.ctx.Err(); err != nil {
		return nil, err
	}
	code, err := pl.code.get(e.prog, nil, 0, pl.p.Blocks)
	if err != nil {
		return nil, fmt.Errorf("ireval: plan %s: %w", name, err)
	}
	e.results, e.err = nil, nil
	defer func() { e.stack = e.stack[:0] }()
	l := e.push(code.locals)
	l[0], l[1] = e.input, e.data
	for _, b := range code.blocks {
		if outer(b.run(e, l)) == abort {
			return nil, fmt.Errorf("%s: %w", name, e.err)
		}
	}
	return e.results, nil
}

// push returns n fresh locals on the evaluation's stack.
func (e *Eval) push(n int) []value {
	base := len(e.stack)
	if cap(e.stack)-base < n {
		e.stack = append(e.stack[:base:base], make([]value, n+max(base, 256))...)[:base]
	}
	e.stack = e.stack[:base+n]
	locals := e.stack[base : base+n : base+n]
	clear(locals)
	return locals
}

// call calls function f with args.
func (e *Eval) call(f *function, args []value) (value, error) {
	var key argsKey
	keyed := false
	if f.memo {
		if m := e.memo[f.index]; m.done {
			return m.v, nil
		}
	} else if key, keyed = e.keyOf(f, args); keyed {
		if r, ok := e.byArgs[key]; ok {
			return r, nil
		}
	}
	code, err := f.code.get(e.prog, f.fn.Params, f.fn.Return, f.fn.Blocks)
	if err != nil {
		return value{}, fmt.Errorf("function %s: %w", f.fn.Name, err)
	}
	blocks := code.blocks
	base := len(e.stack)
	l := e.push(code.locals)
	for i, p := range f.fn.Params {
		l[p] = args[i]
	}
	var r value
	for _, b := range blocks {
		br := outer(b.run(e, l))
		if br == abort {
			e.stack = e.stack[:base]
			return value{}, e.err
		}
		if br == leave {
			r = e.ret
			break
		}
	}
	if !r.defined() && len(blocks) > 0 {
		r = l[f.fn.Return]
	}
	e.stack = e.stack[:base]
	if f.memo {
		e.memo[f.index] = memoEntry{done: true, v: r}
	} else if keyed {
		e.byArgs[key] = r
	}
	return r, nil
}

// callBuiltin calls OPA's implementation of a built-in function; ok is false where the result is
// undefined, which an error of the function also makes it (as OPA does unless built-in errors are
// strict), except a halt error.
func (e *Eval) callBuiltin(name string, bf topdown.BuiltinFunc, args []value) (r value, ok bool, err error) {
	terms := e.args[:0]
	for _, a := range args {
		t, err := e.term(a)
		if err != nil {
			return value{}, false, err
		}
		terms = append(terms, t)
	}
	e.args = terms[:0]
	e.out = nil
	ferr := bf(e.bctx, terms, e.setOut)
	out := e.out
	if ferr != nil {
		var halt topdown.Halt
		if errors.As(ferr, &halt) {
			return value{}, false, fmt.Errorf("%s: %w", name, ferr)
		}
		return value{}, false, nil
	}
	return value{t: out}, out != nil, nil
}

func pathOf(x value) (*ast.Array, bool) {
	if x.t == nil {
		return nil, false
	}
	a, ok := x.t.Value.(*ast.Array)
	return a, ok
}

func numberOf(t *ast.Term) json.Number {
	return json.Number(t.Value.(ast.String))
}
