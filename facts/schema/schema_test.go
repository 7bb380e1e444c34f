package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/internal/doccomments"
)

const (
	factsDir    = ".."
	factsPkg    = "github.com/rdmadoctor/rdmadoctor/facts"
	docsFile    = "../../docs/snapshot.schema.json"
	profileFile = "../../docs/profile.schema.json"
	fleetFile   = "../../docs/fleet.schema.json"
	commentFile = "comments_gen.go"
	regenerate  = "run go generate ./..."
)

// TestGenerated fails when the facts types changed and the committed schemas or the comment
// table were not regenerated (generate.go). It builds the schemas from the comments in the
// source, so it also catches a comment table that is stale while the schemas are not.
func TestGenerated(t *testing.T) {
	cm, err := doccomments.Read(factsDir, factsPkg)
	if err != nil {
		t.Fatal(err)
	}
	check(t, commentFile, doccomments.GoSource(cm))
	b, err := json.MarshalIndent(reflectSnapshot(cm), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	check(t, docsFile, append(b, '\n'))
	b, err = json.MarshalIndent(reflectProfile(cm), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	check(t, profileFile, append(b, '\n'))
	check(t, fleetFile, indent(reflectFleet(cm)))
}

// TestSnapshotMatchesDocs checks that what the engine compiles against is the committed file.
func TestSnapshotMatchesDocs(t *testing.T) {
	want, err := os.ReadFile(docsFile)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(Snapshot())); diff != "" {
		t.Errorf("Snapshot() differs from %s; %s (-want +got):\n%s", docsFile, regenerate, diff)
	}
}

func TestNullable(t *testing.T) {
	var doc struct {
		Defs map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(Snapshot(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		def, prop string
		null      bool
	}{
		{"Port", "rate_gbps", true},   // *float64
		{"Port", "state", false},      // string, omitempty
		{"Snapshot", "devices", true}, // slice without omitempty: nil encodes as null
		{"Host", "memlock", true},     // pointer to a struct: anyOf [$ref, null]
		{"Port", "gids", false},       // slice with omitempty
	} {
		raw := string(doc.Defs[tc.def].Properties[tc.prop])
		if raw == "" {
			t.Errorf("%s.%s: no such property", tc.def, tc.prop)
			continue
		}
		if got := strings.Contains(raw, `"null"`); got != tc.null {
			t.Errorf("%s.%s nullable = %v, want %v: %s", tc.def, tc.prop, got, tc.null, raw)
		}
	}
}

func check(t *testing.T, path string, got []byte) {
	t.Helper()
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v; %s", err, regenerate)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s is stale; %s\n%s", path, regenerate, cmp.Diff(string(want), string(got)))
	}
}
