package engine

import (
	"encoding/json"
	"hash/crc32"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// IndexUpdateEnv, set to 1, makes TestBuiltinIndex write rules/index.json (go generate ./rules)
// instead of failing when it is stale.
const IndexUpdateEnv = "RDMADOCTOR_UPDATE_INDEX"

// indexEntry is what Load needs of one module of a Tested source without parsing it: its
// package and, for a rule module, the rule its METADATA declares. The YAML of the METADATA
// blocks was four fifths of Load's CPU time (docs/performance.md, issue 14).
type indexEntry struct {
	// CRC is the CRC-32C of the file: the entry is used only for the very file it was made of.
	CRC uint32 `json:"crc"`
	// Package is the module's package, rdmadoctor.rules.x or rdmadoctor.lib.y, and Row the
	// line of its package statement.
	Package string `json:"package"`
	Row     int    `json:"row"`
	Rule    *Rule  `json:"rule,omitempty"`
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

// readIndex decodes a Source.Index; nil (every module parsed) when there is none or it does
// not decode.
func readIndex(b []byte) moduleIndex {
	if len(b) == 0 {
		return nil
	}
	var x moduleIndex
	if json.Unmarshal(b, &x) != nil {
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
	b, err := json.MarshalIndent(x, "", "\t")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
