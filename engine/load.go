package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"gopkg.in/yaml.v3"

	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
	"github.com/rdmadoctor/rdmadoctor/rules"
)

// Source is a folder of rules in the layout of rules/: <area>/<id>.rego (tests beside them,
// ignored here), lib/*.rego helpers and data/*.yaml tables.
type Source struct {
	// Name prefixes file names in messages, e.g. "rules" or the --rules directory.
	Name string
	FS   fs.FS
	// Tested says the rules' own tests parse, type-check and compile every module in full (the
	// built-in rules: engine TestBuiltinRules, `opa check`). Load then reads only the package
	// statement and METADATA of their modules, and Prepare parses the modules it compiles.
	Tested bool
	// Index, for a Tested source, is the JSON index of its modules (BuildIndex; rules/index.json
	// for the built-in rules, which TestBuiltinIndex keeps up to date): Load parses no module
	// the index holds an entry for, made of the same content, and takes its package and rule
	// from it. A module changed since is parsed as without it.
	Index []byte
}

// Builtin is the embedded rule set.
func Builtin() Source { return Source{Name: "rules", FS: rules.FS, Tested: true, Index: rules.Index} }

// Dir is a user rule folder given with --rules.
func Dir(dir string) (Source, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return Source{}, fmt.Errorf("rules: %w", err)
	}
	if !st.IsDir() {
		return Source{}, fmt.Errorf("rules: %s is not a directory", dir)
	}
	return Source{Name: dir, FS: os.DirFS(dir)}, nil
}

// catalogOrderFile lists rule ids in catalog order (rule-catalog.md section 1: how often the
// problem bites); ranking uses it as the last tie-breaker.
const catalogOrderFile = "data/catalog_order.yaml"

// rulePrefix is the package prefix of rule modules: data.rdmadoctor.rules.<id_with_underscores>.
var rulePrefix = packageRef("rdmadoctor.rules")

// Set is a loaded and validated rule set, not yet compiled.
type Set struct {
	// Rules sorted by id.
	Rules   []*Rule
	byID    map[string]*Rule
	byPkg   map[string]*Rule
	modules map[string]*module // by file name
	data    map[string]any
	order   map[string]int
}

// module is one Rego file of the set.
type module struct {
	file string
	src  []byte
	pkg  ast.Ref
	// m is the parsed module; for a module of a Tested source, until Prepare parses it, only
	// its package statement and METADATA (header), or nil when Load took it from the source's
	// Index.
	m      *ast.Module
	header bool
	// parsed caches the whole module of a header-only one: Warm or the first compile parses it,
	// once, and every compile after reuses it (OPA's compiler copies the modules it is given).
	parsed struct {
		once sync.Once
		m    *ast.Module
		errs []error
	}
}

// LoadError lists every problem found in the rule files, each naming the file and line.
type LoadError struct{ Problems []error }

func (e *LoadError) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Error()
	}
	return strings.Join(msgs, "\n")
}

// Load reads, parses and validates the rules of every source; later sources may add rules but
// not redefine an id.
func Load(sources ...Source) (*Set, error) {
	s := &Set{byID: map[string]*Rule{}, byPkg: map[string]*Rule{}, modules: map[string]*module{},
		data: map[string]any{}, order: map[string]int{}}
	var problems []error
	for _, src := range sources {
		problems = append(problems, s.load(src)...)
	}
	for id := range s.byID {
		s.Rules = append(s.Rules, s.byID[id])
	}
	sort.Slice(s.Rules, func(i, j int) bool { return s.Rules[i].ID < s.Rules[j].ID })
	if len(problems) > 0 {
		sort.SliceStable(problems, func(i, j int) bool {
			fi, ri := position(problems[i])
			fj, rj := position(problems[j])
			if fi != fj {
				return fi < fj
			}
			return ri < rj
		})
		return nil, &LoadError{Problems: problems}
	}
	return s, nil
}

func (s *Set) load(src Source) []error {
	var problems []error
	var regos []string
	var index moduleIndex
	if src.Tested {
		index = readIndex(src.Index)
	}
	err := fs.WalkDir(src.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %w", path.Join(src.Name, p), err))
			return nil
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return fs.SkipDir
			}
			return nil
		}
		file := path.Join(src.Name, p)
		switch ext := path.Ext(p); {
		case ext == ".rego" && !strings.HasSuffix(p, "_test.rego"):
			regos = append(regos, p)
		case dataFile(p):
			if err := s.loadData(src.FS, p, file, index); err != nil {
				problems = append(problems, err)
			}
		}
		return nil
	})
	if err != nil {
		problems = append(problems, err)
	}
	// Parsing is a fifth of the start-up time: spread it over the CPUs, then register the
	// modules in path order so that duplicate errors are deterministic.
	parsed := make([]parsedModule, len(regos))
	parallel(len(regos), func(i int) {
		parsed[i] = parseModule(src.FS, regos[i], path.Join(src.Name, regos[i]), src.Tested, index)
	})
	for _, pm := range parsed {
		if pm.errs != nil {
			problems = append(problems, pm.errs...)
			continue
		}
		problems = append(problems, s.addModule(pm)...)
	}
	return problems
}

type parsedModule struct {
	file   string
	src    []byte
	m      *ast.Module
	header bool
	errs   []error
	// indexed, when m is nil: the module's entry in its source's index.
	indexed indexEntry
}

// parserOptions are built once, not per file (the capabilities list is large).
var parserOptions = sync.OnceValue(func() ast.ParserOptions {
	return ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1, Capabilities: ast.CapabilitiesForThisVersion()}
})

// parseModule reads and parses one Rego file. With headerOnly, a module is parsed only up to its
// package statement, which a rule's package-scoped METADATA block precedes: OPA's parser reads
// the annotations exactly as from the whole file, at a fraction of the cost. The rest is parsed
// when a compile needs the module (module.whole): a library module too, since a compile of some
// rules takes only the libraries they refer to. A module of index made of the same content is
// not parsed at all.
func parseModule(fsys fs.FS, p, file string, headerOnly bool, index moduleIndex) parsedModule {
	src, err := fs.ReadFile(fsys, p)
	if err != nil {
		return parsedModule{errs: []error{fmt.Errorf("%s: %w", file, err)}}
	}
	if e, ok := index.entry(p, src); ok && headerOnly {
		return parsedModule{file: file, src: src, header: true, indexed: e}
	}
	if h := header(src); headerOnly && h != nil {
		m, errs := parse(file, h)
		if errs == nil {
			return parsedModule{file: file, src: src, m: m, header: true}
		}
	}
	m, errs := parse(file, src)
	if errs != nil {
		return parsedModule{errs: errs}
	}
	return parsedModule{file: file, src: src, m: m}
}

// header returns src up to the end of its package statement, the first line that is neither
// blank nor a comment; nil when that line is not a package statement.
func header(src []byte) []byte {
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		line := bytes.TrimSpace(src[off : off+end])
		switch {
		case len(line) == 0 || line[0] == '#':
			off += end + 1
			continue
		case bytes.HasPrefix(line, []byte("package ")):
			return src[:off+end]
		}
		return nil
	}
	return nil
}

// bodyParserOptions are parserOptions without the METADATA blocks: module.whole parses a file
// whose METADATA Load has read already.
var bodyParserOptions = sync.OnceValue(func() ast.ParserOptions {
	opts := parserOptions()
	opts.ProcessAnnotation = false
	return opts
})

func parse(file string, src []byte) (*ast.Module, []error) {
	return parseWith(file, src, parserOptions())
}

// parseWith parses one Rego file with opts.
func parseWith(file string, src []byte, opts ast.ParserOptions) (*ast.Module, []error) {
	m, err := ast.ParseModuleWithOpts(file, string(src), opts)
	if err != nil {
		if probs := astErrors(err); probs != nil {
			return nil, probs
		}
		return nil, []error{fmt.Errorf("%s: %w", file, err)}
	}
	return m, nil
}

// parallel runs f(0..n-1) on up to GOMAXPROCS goroutines.
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			f(i)
		}()
	}
	wg.Wait()
}

func (s *Set) addModule(pm parsedModule) []error {
	file, src, m := pm.file, pm.src, pm.m
	if _, dup := s.modules[file]; dup {
		return []error{fmt.Errorf("%s: loaded twice", file)}
	}
	var pkg ast.Ref
	var row int
	if m != nil {
		pkg, row = m.Package.Path, m.Package.Location.Row
	} else {
		pkg, row = packageRef(pm.indexed.Package), pm.indexed.Row
	}
	s.modules[file] = &module{file: file, src: src, pkg: pkg, m: m, header: pm.header}
	if !pkg.HasPrefix(rulePrefix) {
		if m != nil && hasRuleID(m) {
			// Rule METADATA in a library package: the rule would never run.
			return []error{fmt.Errorf("%s:%d: package %s has rule METADATA (custom.id) but rule packages are rdmadoctor.rules.<id_with_underscores>",
				file, row, packageName(pkg))}
		}
		return nil // a library module (rdmadoctor.lib...)
	}
	if len(pkg) != len(rulePrefix)+1 {
		return []error{fmt.Errorf("%s:%d: rule packages are rdmadoctor.rules.<id_with_underscores>, not %s",
			file, row, packageName(pkg))}
	}
	var r *Rule
	var problems []error
	if m != nil {
		r, problems = ruleFromModule(file, src, m, !pm.header)
	} else if pm.indexed.Rule != nil {
		rule := *pm.indexed.Rule
		rule.File = file
		rule.pkg, _ = rulePackage(pkg)
		r = &rule
	}
	if r == nil || r.ID == "" {
		return problems
	}
	if prev, dup := s.byID[r.ID]; dup {
		return append(problems, fmt.Errorf("%s:%d: duplicate rule id %q (also in %s)", file, row, r.ID, prev.File))
	}
	if prev, dup := s.byPkg[r.pkg]; dup {
		return append(problems, fmt.Errorf("%s:%d: package %s already defined in %s", file, row, pkg, prev.File))
	}
	s.byID[r.ID] = r
	s.byPkg[r.pkg] = r
	return problems
}

// dataFile reports whether the file at p is a data table (YAML or JSON).
func dataFile(p string) bool {
	ext := path.Ext(p)
	return ext == ".yaml" || ext == ".yml" || ext == ".json"
}

// loadData merges a YAML/JSON table into the data document at the file's directory, the way
// `opa test rules/` and `opa eval -d rules/` load it (rules/data/x.yaml -> data.data.<its keys>).
//
// A table index holds an entry for, made of the same content, is taken from it (its JSON form:
// the same data document, since the store OPA evaluates with holds the JSON form anyway).
func (s *Set) loadData(fsys fs.FS, p, file string, index moduleIndex) error {
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	var doc map[string]any
	if e, ok := index.entry(p, b); ok && e.Data != nil {
		doc = e.Data
		for i, id := range e.Order {
			s.order[id] = i
		}
	} else {
		if err := yaml.Unmarshal(b, &doc); err != nil {
			return yamlError(file, err)
		}
		if p == catalogOrderFile {
			if err := s.loadOrder(b, file); err != nil {
				return err
			}
		}
	}
	node := s.data
	if dir := path.Dir(p); dir != "." {
		for _, part := range strings.Split(dir, "/") {
			next, ok := node[part].(map[string]any)
			if !ok {
				next = map[string]any{}
				node[part] = next
			}
			node = next
		}
	}
	for _, k := range slices.Sorted(maps.Keys(doc)) { // the first duplicate named is always the same
		if _, dup := node[k]; dup {
			return fmt.Errorf("%s: key %q is already defined by another data file", file, k)
		}
		node[k] = doc[k]
	}
	return nil
}

func (s *Set) loadOrder(b []byte, file string) error {
	var doc struct {
		CatalogOrder []string `yaml:"catalog_order"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return yamlError(file, err)
	}
	for i, id := range doc.CatalogOrder {
		if _, dup := s.order[id]; dup {
			return fmt.Errorf("%s: %q listed twice", file, id)
		}
		s.order[id] = i
	}
	return nil
}

var yamlLine = lazyregexp.New(`^(?:yaml: )?line (\d+): `)

// yamlError turns yaml.v3's "yaml: line 3: msg" into "file:3: msg".
func yamlError(file string, err error) error {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	for i, m := range msgs {
		if sm := yamlLine.FindStringSubmatch(m); sm != nil {
			msgs[i] = file + ":" + sm[1] + ": " + m[len(sm[0]):]
		} else {
			msgs[i] = file + ": " + strings.TrimPrefix(m, "yaml: ")
		}
	}
	return errors.New(strings.Join(msgs, "\n"))
}

// RulesFrom returns the rules of the set that src holds, sorted by id.
func (s *Set) RulesFrom(src Source) []*Rule {
	var out []*Rule
	for _, r := range s.Rules {
		if strings.HasPrefix(r.File, path.Clean(src.Name)+"/") {
			out = append(out, r)
		}
	}
	return out
}

// Rule returns the rule with the given id, or nil.
func (s *Set) Rule(id string) *Rule { return s.byID[id] }

// Data is the data document of the set: its YAML tables where `opa test` puts them
// (rules/data/x.yaml at data.data). Shared: callers must not modify it.
func (s *Set) Data() map[string]any { return s.data }

// catalogIndex orders rules: catalog rules by their position, others after them.
func (s *Set) catalogIndex(id string) int {
	if i, ok := s.order[id]; ok {
		return i
	}
	return len(s.order)
}

var positionPattern = lazyregexp.New(`^([^:]+):(\d+):`)

// position is the file and row an error message starts with, to list problems in file order.
func position(err error) (string, int) {
	m := positionPattern.FindStringSubmatch(err.Error())
	if m == nil {
		return err.Error(), 0
	}
	row, _ := strconv.Atoi(m[2])
	return m[1], row
}

// hasRuleID reports whether m has a package-scoped METADATA block with custom.id, which only
// rule modules have.
func hasRuleID(m *ast.Module) bool {
	for _, a := range m.Annotations {
		if _, ok := a.Custom["id"]; ok && a.Scope == "package" {
			return true
		}
	}
	return false
}

// packageName is a package path as its module writes it: rdmadoctor.rules.x, not
// data.rdmadoctor.rules.x.
func packageName(path ast.Ref) string {
	return strings.TrimPrefix(path.String(), "data.")
}
