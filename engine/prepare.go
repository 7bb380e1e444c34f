package engine

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sort"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/rdmadoctor/rdmadoctor/facts/schema"
	"github.com/rdmadoctor/rdmadoctor/report"
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
	// Rules, unless nil, are the ids of the rules to compile, with the rule packages they refer
	// to and every library module; the others are not parsed or compiled, and Diagnose fails
	// on a snapshot on which one of them could run. diagnose of one snapshot compiles only the
	// rules that can run on it (Set.Runnable): the rest of the compile is the biggest part of
	// its start-up.
	Rules []string
	// Stop, when closed, ends the compile at the compiler's next stage: Prepare returns
	// ErrStopped. diagnose compiles ahead, while the snapshot is read, the rules its inputs
	// may run, and stops that compile when a later input adds rules to it.
	Stop <-chan struct{}
}

// ErrStopped is Prepare's error when Options.Stop was closed before the compile ended.
var ErrStopped = errors.New("compile stopped")

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

// unusedStages rewrite what the built-in rules do not hold, or build what only the check stages
// read: print calls, rego.metadata calls and the METADATA they read, template strings, and the
// graph of rule dependencies (the recursion and type checks walk it). With checkStages, they are
// skipped when no module compiled holds a print call, a rego.metadata call or a template string
// (rewritesNeeded): about a tenth of the compile of a diagnose (docs/performance.md).
var unusedStages = []ast.StageID{
	ast.StageRewritePrintCalls, ast.StageRewriteRegoMetadataCalls, ast.StageParseMetadataBlocks,
	ast.StageSetAnnotationSet, ast.StageRewriteTemplateStrings, ast.StageSetGraph,
}

// rewritesNeeded reports whether the source of one of the files of modules may hold what
// unusedStages rewrite: the text of a print call, a rego.metadata call or a template string,
// comments and strings included (a false yes only keeps the stages).
func rewritesNeeded(modules map[string]*module, files []string) bool {
	for _, f := range files {
		src := modules[f].src
		if bytes.Contains(src, []byte("print(")) || bytes.Contains(src, []byte("rego.metadata")) || bytes.Contains(src, []byte(`$"`)) {
			return true
		}
	}
	return false
}

// compiled is a compiler holding some or all modules of a Set and the query prepared with it.
type compiled struct {
	compiler *ast.Compiler
	store    storage.Store
	query    rego.PreparedEvalQuery
	// pkgs are the rule packages compiled.
	pkgs map[string]bool
}

// New loads the sources and prepares the engine.
func New(ctx context.Context, opts Options, sources ...Source) (*Engine, error) {
	set, err := Load(sources...)
	if err != nil {
		return nil, err
	}
	return set.Prepare(ctx, opts)
}

// Prepare compiles the rule set and prepares the query that collects all findings. The engine
// it returns evaluates any number of snapshots, concurrently too.
func (s *Set) Prepare(ctx context.Context, opts Options) (*Engine, error) {
	e := &Engine{set: s, opts: opts, Tool: report.Tool{Name: "rdmadoctor"}}
	c, err := s.compile(ctx, opts, false)
	if err != nil {
		return nil, err
	}
	e.units = []*compiled{c}
	return e, nil
}

// Join returns an engine that evaluates the rules of a and of b, compiled apart from the same
// set: diagnose compiles the rules every snapshot runs (RunnableWith none) as soon as the rules
// are loaded, and the others once the snapshot's first inputs show which (cmd/rdmadoctor
// rules_ahead.go). A rule both hold is evaluated in a's. The engine takes a's Tool and Timeout.
// Errors: a and b of different sets.
func Join(a, b *Engine) (*Engine, error) {
	if a.set != b.set {
		return nil, errors.New("engine.Join: engines of different rule sets")
	}
	return &Engine{set: a.set, opts: a.opts, units: append(slices.Clip(a.units), b.units...), Tool: a.Tool, Timeout: a.Timeout}, nil
}

// compile compiles the modules opts.Rules selects, of the node rules or (fleet) the fleet
// rules, type-checked against the schema of their input document unless opts.SkipTypeCheck,
// and prepares the query.
func (s *Set) compile(ctx context.Context, opts Options, fleet bool) (*compiled, error) {
	mods, pkgs, err := s.modulesFor(opts.Rules, fleet)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(mods))
	for name := range mods {
		names = append(names, name)
	}
	sort.Strings(names)
	store := inmem.NewFromObject(s.data)
	args := []func(*rego.Rego){rego.Query(query), rego.Store(store), runnableFunc}
	for _, name := range names {
		args = append(args, rego.ParsedModule(mods[name]))
	}
	// The compiler is ours: rego only applies Schemas to a compiler it creates, and evalEach
	// reuses it.
	compiler := ast.NewCompiler().WithUseTypeCheckAnnotations(true).WithCapabilities(capabilities())
	if opts.Stop != nil {
		stopAt(compiler, opts.Stop)
	}
	if opts.SkipTypeCheck {
		stages := checkStages
		if !rewritesNeeded(s.modules, names) {
			stages = append(slices.Clip(stages), unusedStages...)
		}
		compiler = compiler.WithSkipStages(stages...)
	} else {
		input := schema.ForRego()
		if fleet {
			input = schema.FleetForRego()
		}
		ss := ast.NewSchemaSet()
		ss.Put(ast.SchemaRootRef, input)
		compiler = compiler.WithSchemas(ss)
	}
	pq, err := rego.New(append(args, rego.Compiler(compiler))...).PrepareForEval(ctx)
	if err != nil {
		if stopped(opts.Stop) {
			return nil, ErrStopped
		}
		return nil, compileError(err)
	}
	return &compiled{compiler: compiler, store: store, query: pq, pkgs: pkgs}, nil
}

// stopAt makes the compiler fail after any stage once stop is closed: a stage's error ends
// OPA's compile there (ast.Compiler.WithStageAfter).
func stopAt(c *ast.Compiler, stop <-chan struct{}) {
	check := ast.CompilerStageDefinition{Name: "rdmadoctor.stop", MetricName: "rdmadoctor_stop", Stage: func(*ast.Compiler) *ast.Error {
		if stopped(stop) {
			return ast.NewError(ast.CompileErr, nil, "%s", ErrStopped)
		}
		return nil
	}}
	for _, id := range ast.AllStages() {
		c.WithStageAfterID(id, check)
	}
}

// stopped reports whether stop is closed (never for nil).
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// Compiled reports whether every rule of ids was compiled into e: Diagnose evaluates a snapshot
// whose Runnable rules it holds (diagnose checks a compile made ahead of the snapshot with it).
func (e *Engine) Compiled(ids []string) bool {
	for _, id := range ids {
		r := e.set.byID[id]
		if r == nil || e.unitOf(r.pkg) == nil {
			return false
		}
	}
	return true
}
