// Package ireval evaluates OPA's intermediate representation (IR) of compiled Rego: the plans
// that `opa build -t plan` (or OPA's compile package) makes of a policy, here the built-in rules
// compiled at build time (package rules/plan). It skips what OPA's Go evaluator does on every
// run (parsing and compiling the rules) and what it does per expression (unification, the undo
// trail): a one-snapshot diagnosis costs a few milliseconds instead of a hundred.
//
// The statements follow the semantics of OPA's own IR back end, the WebAssembly compiler
// (internal/compiler/wasm): blocks are labels a statement that is undefined (a missing key, a
// comparison that fails, an undefined function result) leaves; ScanStmt loops; functions of the
// input and data documents alone are memoized. Built-in functions are OPA's own (topdown), so
// their results are those of `opa eval`; as there, an error in a built-in function makes the
// call undefined.
//
// The input can be a Go value instead of a term: it is read through reflection as encoding/json
// would encode it, and only the parts the plans use are converted (see value).
package ireval

import (
	"errors"
	"fmt"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// Program is a prepared policy: safe for concurrent use by several Evals.
type Program struct {
	strings  []*ast.Term
	funcs    map[string]*function
	plans    map[string]*plan
	builtins map[string]topdown.BuiltinFunc
	nfuncs   int
}

type function struct {
	index int
	fn    *ir.Func
	memo  bool // a function of input and data alone
	code  compiled
}

type plan struct {
	p    *ir.Plan
	code compiled
}

// compiled holds the blocks of a function or plan, checked and compiled on first use: a
// diagnosis runs a fraction of the plan.
type compiled struct {
	once   sync.Once
	blocks []block
	locals int // how many locals a frame holds
	err    error
}

// get checks and compiles bs, the blocks of a function with params and ret (a plan: none).
func (c *compiled) get(prog *Program, params []ir.Local, ret ir.Local, bs []*ir.Block) (*compiled, error) {
	c.once.Do(func() {
		ck := checker{prog: prog, max: max(int(ret), int(ir.Data))}
		for _, l := range params {
			ck.local(l)
		}
		if c.err = ck.blocks(bs); c.err != nil {
			return
		}
		c.locals = ck.max + 1
		c.blocks, c.err = (&compiler{prog: prog, fn: bs}).blocks(bs)
	})
	return c, c.err
}

// Check checks and compiles every function and plan of the program now rather than on first
// use, and returns the first error.
func (p *Program) Check() error {
	for _, f := range p.funcs {
		if _, err := f.code.get(p, f.fn.Params, f.fn.Return, f.fn.Blocks); err != nil {
			return fmt.Errorf("ireval: function %s: %w", f.fn.Name, err)
		}
	}
	for name, pl := range p.plans {
		if _, err := pl.code.get(p, nil, 0, pl.p.Blocks); err != nil {
			return fmt.Errorf("ireval: plan %s: %w", name, err)
		}
	}
	return nil
}

// Prepare indexes p for evaluation; functions and plans are checked and compiled on first use
// (Check does it for all). Errors: a built-in function OPA does not have, a function without
// parameters.
func Prepare(p *ir.Policy) (*Program, error) {
	if p == nil || p.Static == nil || p.Plans == nil {
		return nil, errors.New("ireval: empty policy")
	}
	prog := &Program{
		strings:  make([]*ast.Term, len(p.Static.Strings)),
		funcs:    map[string]*function{},
		plans:    map[string]*plan{},
		builtins: map[string]topdown.BuiltinFunc{},
	}
	for i, s := range p.Static.Strings {
		prog.strings[i] = ast.StringTerm(s.Value)
	}
	if p.Funcs != nil {
		for i, f := range p.Funcs.Funcs {
			if len(f.Params) == 0 {
				return nil, fmt.Errorf("ireval: function %s has no parameters", f.Name)
			}
			prog.funcs[f.Name] = &function{index: i, fn: f, memo: len(f.Params) == 2}
		}
		prog.nfuncs = len(p.Funcs.Funcs)
	}
	for _, b := range p.Static.BuiltinFuncs {
		bf := topdown.GetBuiltin(b.Name)
		if bf == nil {
			return nil, fmt.Errorf("ireval: built-in function %s is not OPA's", b.Name)
		}
		prog.builtins[b.Name] = bf
	}
	for _, pl := range p.Plans.Plans {
		prog.plans[pl.Name] = &plan{p: pl}
	}
	return prog, nil
}

// builtin is OPA's implementation of the built-in function name, nil if there is none.
func (p *Program) builtin(name string) topdown.BuiltinFunc {
	if bf := p.builtins[name]; bf != nil {
		return bf
	}
	return topdown.GetBuiltin(name)
}

// Plans are the names of the plans (entry points) of the program.
func (p *Program) Plans() []string {
	names := make([]string, 0, len(p.plans))
	for name := range p.plans {
		names = append(names, name)
	}
	return names
}

// checker walks the statements of a function or plan: it counts the locals and checks that
// every statement and call can be evaluated.
type checker struct {
	prog *Program
	max  int
}

func (c *checker) local(l ir.Local) {
	c.max = max(c.max, int(l))
}

func (c *checker) blocks(bs []*ir.Block) error {
	for _, b := range bs {
		for _, s := range b.Stmts {
			if err := c.stmt(s); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *checker) stmt(s ir.Stmt) error {
	u, ok := usesOf(s)
	if !ok {
		return fmt.Errorf("statement %T is not supported", s)
	}
	switch s := s.(type) {
	case *ir.CallStmt:
		if c.prog.funcs[s.Func] == nil && c.prog.builtin(s.Func) == nil {
			return fmt.Errorf("call of unknown function %s", s.Func)
		}
	case *ir.MakeNumberRefStmt:
		if s.Index < 0 || s.Index >= len(c.prog.strings) {
			return fmt.Errorf("number constant %d out of range", s.Index)
		}
	}
	for _, ls := range [][]ir.Local{u.reads, u.writes, u.mutates} {
		for _, l := range ls {
			c.local(l)
		}
	}
	return c.blocks(u.blocks)
}
