package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/util"

	"github.com/rdmadoctor/rdmadoctor/rules"
)

// TestBuiltinIndex: rules/index.json is the index of the built-in rules as they are (with
// RDMADOCTOR_UPDATE_INDEX=1, go generate ./rules, it is written instead), and the rule set
// loaded through it is the one loaded by parsing every file: the same rules, packages and
// sources, every module taken from the index, the same data document (in the JSON form the
// store holds) and catalog order. A module changed since the index was made is parsed: its
// rule is the file's.
func TestBuiltinIndex(t *testing.T) {
	src := Builtin()
	built, err := BuildIndex(src)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv(IndexUpdateEnv) == "1" {
		if err := os.WriteFile(filepath.Join("..", "rules", "index.json"), built, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Skip("rules/index.json written")
	}
	if !bytes.Equal(built, rules.Index) {
		t.Fatal("rules/index.json is stale: run go generate ./rules")
	}
	parsed, err := Load(Source{Name: src.Name, FS: src.FS, Tested: true})
	if err != nil {
		t.Fatal(err)
	}
	indexed, err := Load(src)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(parsed.Rules, indexed.Rules, cmp.AllowUnexported(Rule{})); diff != "" {
		t.Errorf("rules loaded through the index (-parsed +indexed):\n%s", diff)
	}
	if len(parsed.modules) != len(indexed.modules) {
		t.Fatalf("%d modules through the index, %d parsed", len(indexed.modules), len(parsed.modules))
	}
	for file, m := range parsed.modules {
		x := indexed.modules[file]
		if x == nil || x.m != nil || !x.pkg.Equal(m.pkg) || !bytes.Equal(x.src, m.src) {
			t.Errorf("%s: not taken from the index as the module parsed (package %v, want %v)", file, x.pkg, m.pkg)
		}
	}

	if !reflect.DeepEqual(parsed.order, indexed.order) || len(indexed.order) == 0 {
		t.Errorf("catalog order through the index differs from the file's (%d ids)", len(indexed.order))
	}
	want, got := any(parsed.data), any(indexed.data) // as the store holds them (inmem round trips)
	if err := util.RoundTrip(&want); err != nil {
		t.Fatal(err)
	}
	if err := util.RoundTrip(&got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" || len(indexed.data) == 0 {
		t.Errorf("data through the index (-parsed +indexed):\n%s", diff)
	}

	// One rule changed since the index: its new title is the rule's.
	r := parsed.Rules[0]
	rel := r.File[len(src.Name)+1:]
	b, _ := rules.FS.ReadFile(rel)
	changed := bytes.Replace(b, []byte("# title: "), []byte("# title: Changed "), 1)
	fsys := fstest.MapFS{rel: {Data: changed}}
	for p, e := range readIndex(rules.Index) {
		if p != rel && e.Rule != nil && e.Rule.Area == r.Area {
			data, _ := rules.FS.ReadFile(p)
			fsys[p] = &fstest.MapFile{Data: data}
		}
	}
	for _, p := range []string{"lib/finding.rego"} {
		data, _ := rules.FS.ReadFile(p)
		fsys[p] = &fstest.MapFile{Data: data}
	}
	set, err := Load(Source{Name: src.Name, FS: fsys, Tested: true, Index: rules.Index})
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Rule(r.ID); got == nil || got.Title != "Changed "+r.Title || set.modules[r.File].m == nil {
		t.Errorf("rule %s changed after the index: %+v, want the title %q from the file", r.ID, got, "Changed "+r.Title)
	}
}
