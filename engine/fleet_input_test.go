package engine_test

import (
	"testing"
	"testing/fstest"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/fabricview"
)

// TestFleetInputValueInterned: the fleet document the fleet rules see is the value inputValue
// makes of it, with equal parts one term: nodes with the same devices share them, and hosts
// with the same own InfiniBand ports their list of them in the fabric.
func TestFleetInputValueInterned(t *testing.T) {
	nodes := map[string]fstest.MapFS{}
	view := fabricview.New()
	for _, c := range []string{"005", "017", "021", "112"} {
		for _, n := range []string{"a", "b"} {
			nodes["node"+c+n] = caseFS(t, c)
			s, err := build.Snapshot(nodes["node"+c+n], facts.SourceInfo{Kind: "captures"})
			if err != nil {
				t.Fatal(err)
			}
			view.Add("node"+c+n, s)
		}
	}
	doc := fleetOf(t, nodes)
	doc.Fabric = view.Fabric()
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
	hosts := got.(ast.Object).Get(ast.StringTerm("fabric")).Get(ast.StringTerm("hosts")).Value.(*ast.Array)
	if hosts.Len() < 4 {
		t.Fatalf("%d fabric hosts, want the InfiniBand nodes' (at least 4)", hosts.Len())
	}
	ports := func(i int) *ast.Term { return hosts.Elem(i).Get(ast.StringTerm("ports")) }
	for i := 0; i+1 < hosts.Len(); i += 2 {
		if ports(i) != ports(i+1) {
			t.Errorf("%v and %v: equal own ports are two terms", hosts.Elem(i).Get(ast.StringTerm("host")), hosts.Elem(i+1).Get(ast.StringTerm("host")))
		}
	}
}
