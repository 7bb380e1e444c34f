package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Runnable returns the ids of the rules one of whose evidence alternatives s has, sorted: the rules
// Diagnose evaluates on s.
func (s *Set) Runnable(snap *facts.Snapshot) []string {
	available := availableGroups(snap)
	var ids []string
	for _, r := range s.Rules {
		if runs(r, available) {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// modulesFor returns the parsed modules to compile for the rules ids (all when ids is nil), by
// file name, and the rule packages among them. Every library module is in; so is every rule
// package a selected module refers to (`import data.rdmadoctor.rules.x`), transitively, and
// all of them when one refers to the rules with a variable. Modules Load read only the header
// of are parsed here; errors name the file and line.
func (s *Set) modulesFor(ids []string) (map[string]*ast.Module, map[string]bool, error) {
	byPkg := map[string]*module{}
	mods := map[string]*ast.Module{}
	pkgs := map[string]bool{}
	var todo []*module
	for _, m := range s.modules {
		pkg, ok := rulePackage(m.pkg)
		switch {
		case !ok:
			todo = append(todo, m)
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

// whole returns the whole parsed module: m.m, or, when Load parsed only its header, the file
// parsed (once: Warm may have done it already) and checked for `findings`. Safe for concurrent
// use.
func (m *module) whole() (*ast.Module, []error) {
	if !m.header {
		return m.m, nil
	}
	m.parsed.once.Do(func() {
		whole, errs := parse(m.file, m.src)
		if errs != nil {
			m.parsed.errs = errs
			return
		}
		pkg, _ := rulePackage(m.pkg)
		if err := checkFindings(m.file, whole, strings.ReplaceAll(pkg, "_", "-")); err != nil {
			m.parsed.errs = []error{err}
			return
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

// rulePackage is the last element of a rule package path data.rdmadoctor.rules.<pkg>.
func rulePackage(path ast.Ref) (string, bool) {
	if len(path) != len(rulePrefix)+1 || !path.HasPrefix(rulePrefix) {
		return "", false
	}
	pkg, ok := path[len(rulePrefix)].Value.(ast.String)
	return string(pkg), ok
}

// referredRules lists the rule packages m refers to (imports and references in rules); "" for
// a reference that selects the package with a variable or other non-string term.
func referredRules(m *ast.Module) []string {
	var out []string
	ast.WalkRefs(m, func(r ast.Ref) bool {
		if len(r) > len(rulePrefix) && r.HasPrefix(rulePrefix) {
			if pkg, ok := r[len(rulePrefix)].Value.(ast.String); ok {
				out = append(out, string(pkg))
			} else {
				out = append(out, "")
			}
		}
		return false
	})
	return out
}
