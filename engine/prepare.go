package engine

import (
	"context"
	"errors"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/rdmadoctor/rdmadoctor/facts/schema"
)

// query collects the findings of the rules Diagnose runs in one evaluation: one result per rule
// package. The packages come from the runnable built-in function (the rules whose fact groups
// the snapshot has), so that the others are not evaluated at all.
const query = "some pkg in " + runnableName + "(); findings := data.rdmadoctor.rules[pkg].findings"

// Options tune Prepare.
type Options struct {
	// SkipTypeCheck compiles without the snapshot schema and without the compiler's other
	// check-only stages (checkStages). Loading is faster, but a rule that reads a field the
	// snapshot does not have, calls an unknown function or recurses is no longer an error at load
	// time (tests keep the checks for the built-in rules).
	SkipTypeCheck bool
	// Lazy defers compiling to Diagnose, which then compiles only the rules it runs (those whose
	// fact groups the snapshot has) and the modules they refer to, once per distinct set of such
	// rules. Prepare then returns no compile errors: Diagnose does. For the built-in rules, which
	// the tests compile in full; a one-snapshot run saves the compile time of the rules it skips.
	Lazy bool
	// Plan is the built-in rules compiled to OPA's IR at build time (rules/plan.Policy()).
	// Diagnose then evaluates it (package engine/ireval) instead of compiling the rules: a
	// one-snapshot run costs milliseconds instead of a hundred. Only for exactly the built-in
	// rules it was made from; Prepare fails when a rule has no plan. Implies Lazy.
	Plan *ir.Policy
}

// checkStages are the compiler stages that only look for mistakes: they rewrite nothing that
// evaluation needs. SkipTypeCheck skips them (a third of the compile time); the tests compile the
// built-in rules with all of them (TestBuiltinRules, `opa check`).
var checkStages = []ast.StageID{
	ast.StageCheckUnusedImports, ast.StageCheckKeywordOverrides, ast.StageCheckDuplicateImports,
	ast.StageCheckVoidCalls, ast.StageCheckRuleConflicts, ast.StageCheckUndefinedFuncs,
	ast.StageCheckSafetyRuleHeads, ast.StageCheckRecursion, ast.StageCheckTypes,
	ast.StageCheckUnsafeBuiltins, ast.StageCheckDeprecatedBuiltins, ast.StageBuildRequiredCapabilities,
	ast.StageRewriteTestRulesForTracing,
}

// compiled is a compiler holding some or all modules of a Set and the query prepared with it.
type compiled struct {
	compiler *ast.Compiler
	store    storage.Store
	query    rego.PreparedEvalQuery
}

// New loads the sources and prepares the engine. With opts.Lazy, the built-in rules are parsed
// only as far as their METADATA until they are compiled.
func New(ctx context.Context, opts Options, sources ...Source) (*Engine, error) {
	set, err := load(opts.Lazy || opts.Plan != nil, sources...)
	if err != nil {
		return nil, err
	}
	return set.Prepare(ctx, opts)
}

// Prepare compiles the rule set and prepares the query that collects all findings (with
// opts.Lazy, Diagnose does).
func (s *Set) Prepare(ctx context.Context, opts Options) (*Engine, error) {
	e := &Engine{set: s, opts: opts, byRun: map[string]*compiled{}, Tool: Tool{Name: "rdmadoctor"}}
	if opts.Plan != nil {
		if err := e.prepareProgram(); err != nil {
			return nil, err
		}
		return e, nil
	}
	if s.compiledOnly {
		return nil, errors.New("the compiled rule set has no Rego source: prepare it with its plan (Options.Plan)")
	}
	if opts.Lazy {
		return e, nil
	}
	c, err := e.compile(ctx, nil)
	if err != nil {
		return nil, err
	}
	e.all = c
	return e, nil
}

// compiledFor returns a compilation that holds the rule packages of run.
func (e *Engine) compiledFor(ctx context.Context, run map[string]bool) (*compiled, error) {
	if e.all != nil {
		return e.all, nil
	}
	pkgs := make([]string, 0, len(run))
	for pkg := range run {
		pkgs = append(pkgs, pkg)
	}
	sort.Strings(pkgs)
	key := strings.Join(pkgs, ",")
	e.mu.Lock()
	defer e.mu.Unlock()
	if c, ok := e.byRun[key]; ok {
		return c, nil
	}
	c, err := e.compile(ctx, pkgs)
	if err != nil {
		return nil, err
	}
	e.byRun[key] = c
	return c, nil
}

// compile compiles the modules the rule packages pkgs need (every module when pkgs is nil) and
// prepares the query.
func (e *Engine) compile(ctx context.Context, pkgs []string) (*compiled, error) {
	modules, err := e.set.modulesFor(pkgs)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(modules))
	for name := range modules {
		names = append(names, name)
	}
	sort.Strings(names)
	store := inmem.NewFromObject(e.set.data)
	opts := []func(*rego.Rego){rego.Query(query), rego.Store(store), runnableFunc}
	for _, name := range names {
		opts = append(opts, rego.ParsedModule(modules[name]))
	}
	// The compiler is ours: rego only applies Schemas to a compiler it creates, and evalEach
	// reuses it.
	compiler := ast.NewCompiler().WithUseTypeCheckAnnotations(true).WithCapabilities(capabilities())
	if e.opts.SkipTypeCheck {
		compiler = compiler.WithSkipStages(checkStages...)
	} else {
		ss := ast.NewSchemaSet()
		ss.Put(ast.SchemaRootRef, schema.ForRego())
		compiler = compiler.WithSchemas(ss)
	}
	pq, err := rego.New(append(opts, rego.Compiler(compiler))...).PrepareForEval(ctx)
	if err != nil {
		return nil, compileError(err)
	}
	return &compiled{compiler: compiler, store: store, query: pq}, nil
}

// modulesFor parses (where Load left them unparsed) and returns the modules that the rule
// packages pkgs need: theirs and, transitively, every module whose package a data reference in
// them may reach. Every module when pkgs is nil.
func (s *Set) modulesFor(pkgs []string) (map[string]*ast.Module, error) {
	s.parseMu.Lock()
	defer s.parseMu.Unlock()
	var next []*module
	if pkgs == nil {
		for _, m := range s.modules {
			next = append(next, m)
		}
	} else {
		for _, pkg := range pkgs {
			r := s.byPkg[pkg]
			if r == nil {
				continue
			}
			next = append(next, s.modules[r.File])
		}
	}
	out := map[string]*ast.Module{}
	for len(next) > 0 {
		if err := s.parse(next); err != nil {
			return nil, err
		}
		for _, m := range next {
			out[m.file] = m.m
		}
		if pkgs == nil {
			break
		}
		var refs []ast.Ref
		for _, m := range next {
			ast.WalkRefs(m.m, func(r ast.Ref) bool {
				if r.HasPrefix(ast.DefaultRootRef) {
					refs = append(refs, r.GroundPrefix())
				}
				return false
			})
		}
		next = nil
		for _, m := range s.modules {
			if _, done := out[m.file]; done {
				continue
			}
			for _, r := range refs {
				if r.HasPrefix(m.pkg) || m.pkg.HasPrefix(r) {
					next = append(next, m)
					break
				}
			}
		}
	}
	return out, nil
}

// parse parses the modules of ms that Load left unparsed, in parallel.
func (s *Set) parse(ms []*module) error {
	var todo []*module
	for _, m := range ms {
		if m.m == nil {
			todo = append(todo, m)
		}
	}
	errs := make([][]error, len(todo))
	parallel(len(todo), func(i int) {
		todo[i].m, errs[i] = parse(todo[i].file, todo[i].src)
	})
	var problems []error
	for _, e := range errs {
		problems = append(problems, e...)
	}
	if len(problems) > 0 {
		return &LoadError{Problems: problems}
	}
	return nil
}
