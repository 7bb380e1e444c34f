package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// compiledSet is the JSON form of a loaded Set for the built-in rules compiled at build time
// (rules/plan): their metadata, data document and catalog order, without the Rego source, so
// that diagnose need not parse 58 METADATA blocks (a quarter of the process) at every run.
type compiledSet struct {
	Rules []compiledRule `json:"rules"`
	Data  map[string]any `json:"data"`
	Order map[string]int `json:"order"`
}

type compiledRule struct {
	*Rule
	Package string `json:"package"`
}

// MarshalCompiled encodes the set's metadata, data and catalog order for LoadCompiled
// (indented, deterministic: maps are written with sorted keys).
func (s *Set) MarshalCompiled() ([]byte, error) {
	cs := compiledSet{Data: s.data, Order: s.order}
	for _, r := range s.Rules {
		cs.Rules = append(cs.Rules, compiledRule{Rule: r, Package: r.pkg})
	}
	b, err := json.MarshalIndent(cs, "", "\t")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// LoadCompiled decodes what MarshalCompiled wrote. The set holds no Rego modules: it can only
// be prepared with Options.Plan, the plan made from the same rules.
func LoadCompiled(b []byte) (*Set, error) {
	var cs compiledSet
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&cs); err != nil {
		return nil, fmt.Errorf("compiled rules: %w", err)
	}
	s := &Set{byID: map[string]*Rule{}, byPkg: map[string]*Rule{}, modules: map[string]*module{},
		data: cs.Data, order: cs.Order, compiledOnly: true}
	if s.data == nil {
		s.data = map[string]any{}
	}
	for _, cr := range cs.Rules {
		r := cr.Rule
		if r == nil || r.ID == "" || cr.Package == "" || s.byID[r.ID] != nil {
			return nil, fmt.Errorf("compiled rules: missing or duplicate rule %+v", cr)
		}
		r.pkg = cr.Package
		s.Rules = append(s.Rules, r)
		s.byID[r.ID], s.byPkg[r.pkg] = r, r
	}
	return s, nil
}
