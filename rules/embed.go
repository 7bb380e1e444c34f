// Package rules holds rdmadoctor's built-in knowledge: one Rego package per rule
// (<area>/<id>.rego with <id>_test.rego beside it), helpers under lib/ and knowledge tables under
// data/. The engine loads them from FS; user rule folders use the same layout.
package rules

import "embed"

// FS holds the rules and their tests (<area>/*.rego), lib/ helpers and data/*.yaml. The
// engine takes the .rego files that are not tests and the YAML tables it knows.
//
//go:embed */*.rego */*.yaml
var FS embed.FS

// Index is the index of the rule modules (engine.BuildIndex): each module's package and the
// rule its METADATA declares, with a checksum of the file, so that loading the built-in rules
// parses none of them. `go generate ./rules` rewrites it; engine TestBuiltinIndex fails while
// it is stale (a module whose checksum differs is parsed: stale costs time, not correctness).
//
//go:embed index.json
var Index []byte
