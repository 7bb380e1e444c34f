// Command gen writes facts/schema's generated files. generate.go in facts/schema runs it twice:
//
//	go run ./internal/gen -comments comments_gen.go -facts ..
//	go run ./internal/gen -snapshot ../../docs/snapshot.schema.json -profile ../../docs/profile.schema.json -fleet ../../docs/fleet.schema.json
//
// The first run writes the doc comments of the facts types (package facts in -facts) as Go; the
// second, compiled anew with that table, writes schema.Snapshot(), schema.Profile() and
// schema.Fleet(). One run
// cannot do both: it links the comment table that was there when it was built.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/rdmadoctor/rdmadoctor/facts/schema"
	"github.com/rdmadoctor/rdmadoctor/internal/doccomments"
)

// factsPkg is the import path whose types the schemas describe (the comment table's key prefix).
const factsPkg = "github.com/rdmadoctor/rdmadoctor/facts"

func main() {
	comments := flag.String("comments", "", "write the comment table of the facts types to `FILE`")
	factsDir := flag.String("facts", "..", "the facts package's `DIR` (with -comments)")
	snapshot := flag.String("snapshot", "", "write the snapshot's JSON Schema to `FILE`")
	profile := flag.String("profile", "", "write the site profile's JSON Schema to `FILE`")
	fleet := flag.String("fleet", "", "write the fleet document's JSON Schema to `FILE`")
	flag.Parse()
	if err := run(*comments, *factsDir, map[string]func() []byte{*snapshot: schema.Snapshot, *profile: schema.Profile, *fleet: schema.Fleet}); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// run writes the comment table, or each schema to its file (schemas: file -> schema; an empty
// file name is a flag not given).
func run(comments, factsDir string, schemas map[string]func() []byte) error {
	delete(schemas, "")
	if comments != "" && len(schemas) > 0 {
		return fmt.Errorf("-comments and -snapshot/-profile/-fleet are two runs: the schemas need the new table compiled in")
	}
	if comments != "" {
		cm, err := doccomments.Read(factsDir, factsPkg)
		if err != nil {
			return err
		}
		if err := os.WriteFile(comments, doccomments.GoSource(cm), 0o644); err != nil {
			return err
		}
	}
	for file, gen := range schemas {
		if err := os.WriteFile(file, gen(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
