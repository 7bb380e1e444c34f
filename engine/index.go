package engine

import (
	"bytes"
	"encoding/json"
	"hash/crc32"
	"io/fs"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"gopkg.in/yaml.v3"
)

// IndexUpdateEnv, set to 1, makes TestBuiltinIndex write rules/index.json (go generate ./rules)
// instead of failing when it is stale.
const IndexUpdateEnv = "RDMADOCTOR_UPDATE_INDEX"

// indexEntry is what Load needs of one file of a Tested source without parsing it: for a
// module, its package and, for a rule module, the rule its METADATA declares; for a data
// table, its document. The YAML of the METADATA blocks and tables was four fifths of Load's
// CPU time (docs/performance.md, issue 14).
type indexEntry struct {
	// CRC is the CRC-32C of the file: the entry is used only for the very file it was made of.
	CRC uint32 `json:"crc"`
	// Package is the module's package, rdmadoctor.rules.x or rdmadoctor.lib.y, and Row the
	// line of its package statement.
	Package string `json:"package,omitempty"`
	Row     int    `json:"row,omitempty"`
	Rule    *Rule  `json:"rule,omitempty"`
	// Data is a table's document; Order, for catalogOrderFile, the rule ids it lists.
	Data  map[string]any `json:"data,omitempty"`
	Order []string       `json:"order,omitempty"`
}

// moduleIndex is the index of a source's modules by their path in Source.FS (rules/index.json).
type moduleIndex map[string]indexEntry

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// entry returns the entry of the module at p whose content is src, if the index has one made of
// that content.
func (x moduleIndex) entry(p string, src []byte) (indexEntry, bool) {
	e, ok := x[p]
	if !ok || e.CRC != crc32.Checksum(src, crcTable) {
		return indexEntry{}, false
	}
	return e, true
}

// readIndex decodes a Source.Index; nil (every file parsed) when there is none or it does not
// decode. Numbers in tables are kept as written (json.Number).
func readIndex(b []byte) moduleIndex {
	if len(b) == 0 {
		return nil
	}
	var x moduleIndex
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&x) != nil {
		return nil
	}
	return x
}

// packageRef is the data reference of a package written rdmadoctor.rules.x, as the parser
// gives it (without locations).
func packageRef(pkg string) ast.Ref {
	parts := strings.Split(pkg, ".")
	ref := make(ast.Ref, 0, len(parts)+1)
	ref = append(ref, ast.DefaultRootDocument)
	for _, p := range parts {
		ref = append(ref, ast.StringTerm(p))
	}
	return ref
}

// BuildIndex returns the index of src's modules (rules/index.json for the built-in rules): src
// loaded, without any index, and each of its modules with its package and rule. It fails
// when src does not load.
func BuildIndex(src Source) ([]byte, error) {
	src.Index = nil
	s, err := Load(src)
	if err != nil {
		return nil, err
	}
	x := moduleIndex{}
	prefix := strings.TrimSuffix(src.Name, "/") + "/"
	files := make([]string, 0, len(s.modules))
	for file := range s.modules {
		files = append(files, file)
	}
	sort.Strings(files)
	for _, file := range files {
		m := s.modules[file]
		e := indexEntry{CRC: crc32.Checksum(m.src, crcTable), Package: packageName(m.pkg), Row: m.m.Package.Location.Row}
		if pkg, ok := rulePackage(m.pkg); ok {
			e.Rule = s.byPkg[pkg]
		}
		x[strings.TrimPrefix(file, prefix)] = e
	}
	order := make([]string, len(s.order))
	for id, i := range s.order {
		order[i] = id
	}
	err = fs.WalkDir(src.FS, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && p != "." && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")):
			return fs.SkipDir
		case d.IsDir() || !dataFile(p):
			return nil
		}
		b, err := fs.ReadFile(src.FS, p)
		if err != nil {
			return err
		}
		var doc map[string]any
		if err := yaml.Unmarshal(b, &doc); err != nil {
			return err
		}
		e := indexEntry{CRC: crc32.Checksum(b, crcTable), Data: doc}
		if p == catalogOrderFile {
			e.Order = order
		}
		x[p] = e
		return nil
	})
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(x, "", "\t")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
