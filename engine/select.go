package engine

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Runnable returns the ids of the node rules one of whose evidence alternatives s has, sorted:
// the rules Diagnose evaluates on s.
func (s *Set) Runnable(snap *facts.Snapshot) []string { return s.RunnableWith(snap.Available) }

// RunnableWith returns the ids of the node rules one of whose evidence alternatives the fact
// groups groups hold, sorted (Runnable of a snapshot whose Available they are).
func (s *Set) RunnableWith(groups []string) []string {
	available := make(map[string]bool, len(groups))
	for _, g := range groups {
		available[g] = true
	}
	var ids []string
	for _, r := range s.Rules {
		if !r.Fleet() && runs(r, available) {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// modulesFor returns the parsed modules to compile for the rules ids (all when ids is nil), by
// file name, and the rule packages among them. fleet selects the fleet rules (area fleet)
// instead of the node rules: the two are never compiled together, for their input documents
// differ.
//
// For all the node rules (ids nil) every library module is in but the fleet libraries
// (rdmadoctor.lib.fleet and below); for some of them, the library modules a selected module
// refers to, transitively (a diagnose compiles only what its rules use: the libraries are half
// of the compile of a typical subset); for the fleet rules, the fleet libraries and the other
// library modules a selected module refers to. A reference that names the libraries with a
// variable or whole (data.rdmadoctor.lib[x], import data.rdmadoctor.lib) takes every one of
// them. So is every rule package of the same kind a selected module refers to (`import
// data.rdmadoctor.rules.x`), transitively, and all of them when one refers to the rules with a
// variable. Modules Load read only the header of are parsed here; errors name the file and
// line.
func (s *Set) modulesFor(ids []string, fleet bool) (map[string]*ast.Module, map[string]bool, error) {
	byPkg := map[string]*module{} // rule modules of the kind, by package
	var libs []*module            // library modules that may be selected, not selected yet
	mods := map[string]*ast.Module{}
	pkgs := map[string]bool{}
	var todo []*module
	byRef := fleet || ids != nil // libraries by reference
	for _, m := range s.modules {
		pkg, ok := rulePackage(m.pkg)
		switch {
		case !ok && m.pkg.HasPrefix(fleetLibPrefix) == fleet && (fleet || !byRef):
			todo = append(todo, m)
		case !ok && m.pkg.HasPrefix(fleetLibPrefix) == fleet, !ok && fleet:
			libs = append(libs, m)
		case !ok:
		case s.byPkg[pkg] == nil || s.byPkg[pkg].Fleet() != fleet:
		case ids == nil:
			todo = append(todo, m)
			pkgs[pkg] = true
		default:
			byPkg[pkg] = m
		}
	}
	add := func(pkg string) {
		if m := byPkg[pkg]; m != nil && !pkgs[pkg] {
			pkgs[pkg] = true
			todo = append(todo, m)
		}
	}
	// addLibs selects the library modules ref may name: those whose package is a prefix of
	// ref's string part or below it, every one when ref names them with a variable (all).
	addLibs := func(ref ast.Ref, all bool) {
		ref = ref.StringPrefix()
		kept := libs[:0]
		for _, m := range libs {
			if all || ref.HasPrefix(m.pkg) || m.pkg.HasPrefix(ref) {
				todo = append(todo, m)
				continue
			}
			kept = append(kept, m)
		}
		libs = kept
	}
	for _, id := range ids {
		r := s.byID[id]
		if r == nil {
			return nil, nil, fmt.Errorf("no rule %q to compile", id)
		}
		add(r.pkg)
	}
	var problems []error
	for len(todo) > 0 {
		batch := todo
		todo = nil
		parsed := make([]*ast.Module, len(batch))
		errs := make([][]error, len(batch))
		parallel(len(batch), func(i int) { parsed[i], errs[i] = batch[i].whole() })
		for i, m := range parsed {
			if errs[i] != nil {
				problems = append(problems, errs[i]...)
				continue
			}
			mods[batch[i].file] = m
			for _, pkg := range referredRules(m) {
				if pkg == "" {
					for p := range byPkg {
						add(p)
					}
					continue
				}
				add(pkg)
			}
			if byRef && len(libs) > 0 {
				dataRefs(m, func(r ast.Ref) {
					if lib, all := libraryRef(r); lib || all {
						addLibs(r, all)
					}
				})
			}
		}
	}
	if len(problems) > 0 {
		sort.SliceStable(problems, func(i, j int) bool {
			fi, ri := position(problems[i])
			fj, rj := position(problems[j])
			return fi < fj || fi == fj && ri < rj
		})
		return nil, nil, &LoadError{Problems: problems}
	}
	return mods, pkgs, nil
}

var (
	// libPrefix is the package prefix of the library modules (rules/lib/).
	libPrefix = packageRef("rdmadoctor.lib")
	// fleetLibPrefix is that of the fleet libraries: helpers over the fleet document, compiled
	// with the fleet rules only (rules/lib/fleet*.rego).
	fleetLibPrefix = packageRef("rdmadoctor.lib.fleet")
)

// whole returns the whole parsed module: m.m, or, when Load parsed only its header, the file
// parsed (once: Warm may have done it already) and, a rule module, checked for `findings`. Safe
// for concurrent use.
//
// The METADATA of the header, when Load parsed it, is not parsed again (its YAML is a third of
// the parse of a rule module): the rest of the file is parsed without annotations and given
// copies of the header's, unless it has METADATA of its own (a rule-scoped block), when the
// whole file is parsed with them, as a module Load took from the index is.
func (m *module) whole() (*ast.Module, []error) {
	if !m.header {
		return m.m, nil
	}
	m.parsed.once.Do(func() {
		var whole *ast.Module
		var errs []error
		if h := header(m.src); m.m != nil && h != nil && !bytes.Contains(m.src[len(h):], []byte("METADATA")) {
			whole, errs = parseWith(m.file, m.src, bodyParserOptions())
			if errs == nil {
				whole.Annotations = make([]*ast.Annotations, len(m.m.Annotations))
				for i, a := range m.m.Annotations {
					whole.Annotations[i] = a.Copy(whole.Package)
				}
			}
		} else {
			whole, errs = parse(m.file, m.src)
		}
		if errs != nil {
			m.parsed.errs = errs
			return
		}
		if pkg, ok := rulePackage(m.pkg); ok {
			if err := checkFindings(m.file, whole, strings.ReplaceAll(pkg, "_", "-")); err != nil {
				m.parsed.errs = []error{err}
				return
			}
		}
		m.parsed.m = whole
	})
	return m.parsed.m, m.parsed.errs
}

// Warm parses, on one goroutine, the rule modules Load read only the header of, until every one
// is parsed or stop is closed, so that a Prepare after it only compiles: diagnose calls it while
// the snapshot is read, before it knows which rules can run. Parse errors are kept for the
// Prepare that needs the module (they name its file and line there). Safe to run beside
// Prepare: a module is parsed once, by whichever asks first.
func (s *Set) Warm(stop <-chan struct{}) {
	files := make([]string, 0, len(s.modules))
	for file, m := range s.modules {
		if m.header {
			files = append(files, file)
		}
	}
	sort.Strings(files)
	for _, file := range files {
		select {
		case <-stop:
			return
		default:
		}
		s.modules[file].whole()
	}
}

// libraryRef reports whether r names library modules by their package (data.rdmadoctor.lib.x...),
// or, all, may name any of them: r is data.rdmadoctor.lib or above it, or selects a package on
// the way with a variable or other non-string term (data.rdmadoctor.lib[x], data[x]).
func libraryRef(r ast.Ref) (lib, all bool) {
	name, all := below(r, libPrefix)
	return name != "", all
}

// below reports which package right below prefix (a data reference) r names: its name, or, all,
// any of them (r is prefix or above it, or selects a part of it with a variable or other
// non-string term); "", false when r names none.
func below(r, prefix ast.Ref) (name string, all bool) {
	if len(r) == 0 || !r[0].Equal(prefix[0]) {
		return "", false
	}
	for i := 1; i <= len(prefix); i++ {
		if i == len(r) {
			return "", true // data.rdmadoctor: the packages below prefix with the rest
		}
		s, ok := r[i].Value.(ast.String)
		switch {
		case !ok:
			return "", true
		case i == len(prefix):
			return string(s), false
		case s != prefix[i].Value:
			return "", false
		}
	}
	return "", false
}

// dataRefs calls f with each reference to the data document in m, and with the one-term
// reference `data` for a bare `data` (object.get(data, ...)), which may name anything.
func dataRefs(m *ast.Module, f func(ast.Ref)) {
	var vis *ast.GenericVisitor
	vis = ast.NewGenericVisitor(func(x any) bool {
		switch v := x.(type) {
		case ast.Ref:
			if v[0].Equal(ast.DefaultRootDocument) {
				f(v)
			}
			for _, t := range v[1:] { // operands may hold references too: x[data.y]
				vis.Walk(t)
			}
			return true
		case ast.Var:
			if v.Equal(ast.DefaultRootDocument.Value) {
				f(ast.Ref{ast.DefaultRootDocument})
			}
		}
		return false
	})
	vis.Walk(m)
}

// rulePackage is the last element of a rule package path data.rdmadoctor.rules.<pkg>.
func rulePackage(path ast.Ref) (string, bool) {
	if len(path) != len(rulePrefix)+1 || !path.HasPrefix(rulePrefix) {
		return "", false
	}
	pkg, ok := path[len(rulePrefix)].Value.(ast.String)
	return string(pkg), ok
}

// referredRules lists the rule packages m refers to (imports and references in rules); "" for
// a reference that may name any of them (with a variable or other non-string term, or the data
// document above them).
func referredRules(m *ast.Module) []string {
	var out []string
	dataRefs(m, func(r ast.Ref) {
		if pkg, all := below(r, rulePrefix); pkg != "" || all {
			out = append(out, pkg)
		}
	})
	return out
}
