package engine

import (
	"context"
	"errors"
	"sort"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// runnableName is a built-in function of the prepared query only: it returns the packages of the
// rules to evaluate, which Diagnose passes in the evaluation's context. A prepared query cannot
// take parameters, and the input document is the snapshot the rules see.
const runnableName = "rdmadoctor.runnable"

var runnableDecl = &rego.Function{
	Name:             runnableName,
	Decl:             types.NewFunction(nil, types.NewArray(nil, types.S)),
	Nondeterministic: true, // depends on the context, not on its (no) arguments
}

// runnableFunc implements runnableName for rego.New.
var runnableFunc = rego.FunctionDyn(runnableDecl, func(bctx rego.BuiltinContext, _ []*ast.Term) (*ast.Term, error) {
	t, ok := bctx.Context.Value(runnableKey{}).(*ast.Term)
	if !ok {
		return nil, errors.New(runnableName + ": no rule packages in the evaluation context")
	}
	return t, nil
})

type runnableKey struct{}

// withRunnable stores the packages of run (sorted) in ctx for runnableName.
func withRunnable(ctx context.Context, run map[string]bool) context.Context {
	pkgs := make([]string, 0, len(run))
	for pkg := range run {
		pkgs = append(pkgs, pkg)
	}
	sort.Strings(pkgs)
	terms := make([]*ast.Term, len(pkgs))
	for i, pkg := range pkgs {
		terms[i] = ast.StringTerm(pkg)
	}
	return context.WithValue(ctx, runnableKey{}, ast.ArrayTerm(terms...))
}

// capabilities are OPA's for this version plus runnableName, which the compiler must know to
// compile the query.
func capabilities() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	caps.Builtins = append(caps.Builtins, &ast.Builtin{Name: runnableName, Decl: runnableDecl.Decl, Nondeterministic: true})
	return caps
}
