package engine_test

import (
	"testing"
	"testing/fstest"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/engine"
)

// TestFleetInputValueInterned: the fleet document the fleet rules see is the value inputValue
// makes of it, with equal parts one term: nodes with the same devices share them.
func TestFleetInputValueInterned(t *testing.T) {
	nodes := map[string]fstest.MapFS{}
	for _, c := range []string{"005", "017", "021", "112"} {
		for _, n := range []string{"a", "b"} {
			nodes["node"+c+n] = caseFS(t, c)
		}
	}
	doc := fleetOf(t, nodes)
	doc.Fabric = nil // the fabric's evidence names each host: no two hosts share it
	want, err := engine.InputValue(doc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := engine.FleetInputValue(doc)
	if err != nil {
		t.Fatal(err)
	}
	if ast.Compare(want, got) != 0 {
		t.Fatalf("interned fleet document differs:\n got %v\nwant %v", got, want)
	}
	summaries := got.(ast.Object).Get(ast.StringTerm("nodes")).Value.(*ast.Array)
	if summaries.Len() != 8 {
		t.Fatalf("%d node summaries, want 8", summaries.Len())
	}
	devices := func(i int) *ast.Term { return summaries.Elem(i).Get(ast.StringTerm("devices")) }
	for i := 0; i < 8; i += 2 {
		a, b := devices(i), devices(i+1)
		if a != b {
			t.Errorf("%v and %v: equal devices are two terms", summaries.Elem(i).Get(ast.StringTerm("host")), summaries.Elem(i+1).Get(ast.StringTerm("host")))
		}
		if i+2 < 8 && a == devices(i+2) {
			t.Errorf("nodes %d and %d of different cases share their devices", i, i+2)
		}
	}
	if summaries.Elem(0) == summaries.Elem(1) {
		t.Error("two hosts are one term")
	}
}
