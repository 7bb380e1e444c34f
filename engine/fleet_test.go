package engine

import (
	"context"
	"testing"
)

// TestBuiltinFleetRules compiles the built-in fleet rules with every check, type-checked
// against the fleet document's schema: a fleet rule reading a field facts.Fleet does not have
// fails here with its file and row. Node rules and fleet rules never share a compile.
func TestBuiltinFleetRules(t *testing.T) {
	set, err := Load(Builtin())
	if err != nil {
		t.Fatal(err)
	}
	fe, err := set.PrepareFleet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(set.FleetRules()) == 0 {
		t.Fatal("no fleet rules")
	}
	for _, r := range set.FleetRules() {
		if !fe.rules.pkgs[r.pkg] {
			t.Errorf("%s: not compiled into the fleet engine", r.ID)
		}
	}
	e, err := set.Prepare(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range set.FleetRules() {
		if e.unitOf(r.pkg) != nil {
			t.Errorf("%s: a fleet rule compiled with the node rules", r.ID)
		}
	}
}
