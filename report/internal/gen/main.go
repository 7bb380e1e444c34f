// Command gen writes docs/report.schema.json, the JSON Schema of the report document
// (report.Report, schema version 1), or with -type fleet docs/fleet-report.schema.json, that of
// the fleet report (report.Fleet), with the doc comments of the report and facts types as
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
	"reflect"

	"github.com/invopop/jsonschema"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/schema"
	"github.com/rdmadoctor/rdmadoctor/internal/doccomments"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// documents are the schemas gen writes, by -type: the document's type, $id and title.
var documents = map[string]struct {
	v         any
	id, title string
}{
	"report": {&report.Report{}, "https://github.com/rdmadoctor/rdmadoctor/docs/report.schema.json", "rdmadoctor report"},
	"fleet":  {&report.Fleet{}, "https://github.com/rdmadoctor/rdmadoctor/docs/fleet-report.schema.json", "rdmadoctor fleet report"},
}

func main() {
	out := flag.String("o", "", "write the report's JSON Schema to `FILE`")
	root := flag.String("root", "../..", "the repository's root `DIR` (for the types' doc comments)")
	typ := flag.String("type", "report", "the `DOCUMENT`: report or fleet")
	flag.Parse()
	b, err := build(*root, *typ)
	if err == nil {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// build returns the schema of the document typ, indented, with a trailing newline; root is the
// repository's root.
func build(root, typ string) ([]byte, error) {
	doc, ok := documents[typ]
	if !ok {
		return nil, fmt.Errorf("-type %q: want report or fleet", typ)
	}
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
	s := r.Reflect(doc.v)
	s.ID = jsonschema.ID(doc.id)
	// The fleet report holds node summaries and the fabric view, fact types whose absent facts
	// are null; the fabric itself is null when no snapshot had a fabric capture.
	schema.Nullable(s, reflect.TypeOf(facts.NodeSummary{}))
	schema.Nullable(s, reflect.TypeOf(facts.FleetFabric{}))
	schema.NullableField(s, reflect.TypeOf(report.Fleet{}), "fabric")
	s.Title = doc.title
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
