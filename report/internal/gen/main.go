// Command gen writes docs/report.schema.json, the JSON Schema of the report document
// (report.Report, schema version 1) with the doc comments of the report and facts types as
// descriptions. report/generate.go runs it (`go generate ./...`); TestGenerated fails while the
// committed file is stale.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"

	"github.com/invopop/jsonschema"

	"github.com/rdmadoctor/rdmadoctor/internal/doccomments"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// ID is the schema's $id.
const ID = "https://github.com/rdmadoctor/rdmadoctor/docs/report.schema.json"

func main() {
	out := flag.String("o", "", "write the report's JSON Schema to `FILE`")
	root := flag.String("root", "../..", "the repository's root `DIR` (for the types' doc comments)")
	flag.Parse()
	b, err := build(*root)
	if err == nil {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// build returns the schema, indented, with a trailing newline; root is the repository's root.
func build(root string) ([]byte, error) {
	comments := map[string]string{}
	for dir, pkg := range map[string]string{
		"report": "github.com/rdmadoctor/rdmadoctor/report",
		"facts":  "github.com/rdmadoctor/rdmadoctor/facts",
	} {
		cm, err := doccomments.Read(filepath.Join(root, dir), pkg)
		if err != nil {
			return nil, err
		}
		maps.Copy(comments, cm)
	}
	r := &jsonschema.Reflector{RequiredFromJSONSchemaTags: true, CommentMap: comments}
	s := r.Reflect(&report.Report{})
	s.ID = ID
	s.Title = "rdmadoctor report"
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
