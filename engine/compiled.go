package engine

import (
	"errors"
	"fmt"
)

// CompiledSet is a loaded Set of the built-in rules as plain Go data, which rules/plan holds as
// a generated literal beside their plan: their metadata, data document and catalog order,
// without the Rego source. diagnose then parses no METADATA block (a quarter of the process
// when it did) and decodes nothing.
type CompiledSet struct {
	Rules []CompiledRule
	Data  map[string]any
	Order map[string]int
}

// CompiledRule is a rule's metadata and its package (the id with underscores).
type CompiledRule struct {
	Rule
	Package string
}

// Compiled returns the set as CompiledSet, for the generator of rules/plan.
func (s *Set) Compiled() *CompiledSet {
	cs := &CompiledSet{Data: s.data, Order: s.order}
	for _, r := range s.Rules {
		cr := CompiledRule{Rule: *r, Package: r.pkg}
		cr.pkg = "" // in Package: a literal cannot set an unexported field
		cs.Rules = append(cs.Rules, cr)
	}
	return cs
}

// FromCompiled makes the set cs holds. The set has no Rego modules: it can only be prepared
// with Options.Plan, the plan made from the same rules. Errors: a rule without id or package,
// a duplicate id.
func FromCompiled(cs *CompiledSet) (*Set, error) {
	if cs == nil {
		return nil, errors.New("compiled rules: none")
	}
	s := &Set{byID: map[string]*Rule{}, byPkg: map[string]*Rule{}, modules: map[string]*module{},
		data: cs.Data, order: cs.Order, compiledOnly: true}
	if s.data == nil {
		s.data = map[string]any{}
	}
	for i := range cs.Rules {
		cr := &cs.Rules[i]
		if cr.ID == "" || cr.Package == "" || s.byID[cr.ID] != nil {
			return nil, fmt.Errorf("compiled rules: rule %d (%q): missing id or package, or a duplicate id", i, cr.ID)
		}
		r := cr.Rule
		r.pkg = cr.Package
		s.Rules = append(s.Rules, &r)
		s.byID[r.ID], s.byPkg[r.pkg] = &r, &r
	}
	return s, nil
}
