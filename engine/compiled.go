package engine

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// CompiledSet is a loaded Set of the built-in rules as plain Go data, which rules/plan holds as
// a generated literal beside their plan: their metadata, data document and catalog order,
// without the Rego source. diagnose then parses no METADATA block (a quarter of the process
// when it did) and decodes nothing.
type CompiledSet struct {
	Rules []CompiledRule
	Data  map[string]any
	Order map[string]int
	// Digest is Digest of the rules this was made from.
	Digest string
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

// Digest identifies the rule sources of src (rule and library modules, data tables, not tests):
// a CRC-32C over their paths and contents, streamed (diagnose computes it at every run; the
// hardware instruction makes it cost microseconds). It detects edits, not tampering: rules/plan
// records the digest of the rules it was compiled from, so that a binary built from changed
// rules without `go generate ./rules/plan` notices instead of running the old plan.
func Digest(src Source) (string, error) {
	var files []string
	err := fs.WalkDir(src.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch ext := path.Ext(p); {
		case d.IsDir():
		case ext == ".rego" && !strings.HasSuffix(p, "_test.rego"), ext == ".yaml", ext == ".yml", ext == ".json":
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	h := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	buf := make([]byte, 32<<10)
	for _, p := range files {
		f, err := src.FS.Open(p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00", p)
		_, err = io.CopyBuffer(h, f, buf)
		f.Close()
		if err != nil {
			return "", err
		}
		h.Write([]byte{0})
	}
	return fmt.Sprintf("%08x-%d", h.Sum32(), len(files)), nil
}
