package engine_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
)

// twoRules: "speculative" (warning, low) explains "proven" (error, high) on the same port.
var twoRules = fstest.MapFS{
	"link/speculative.rego": {Data: []byte(`# METADATA
# title: Speculative cause
# description: A guess about why the port is down.
# scope: package
# custom:
#   id: speculative
#   area: link
#   severity: warning
#   confidence: low
#   requires: []
#   explains: [proven]
#   fix:
#     - command: check {{device}}
package rdmadoctor.rules.speculative

findings contains {"subject": {"device": d.name, "port": 1}, "message": "maybe", "evidence": []} if some d in input.devices
`)},
	"link/proven.rego": {Data: []byte(`# METADATA
# title: Proven symptom
# description: The port is down, proven by its state.
# scope: package
# custom:
#   id: proven
#   area: link
#   severity: error
#   confidence: high
#   requires: []
#   fix:
#     - command: ibstat {{device}} {{port}}
package rdmadoctor.rules.proven

findings contains {"subject": {"device": d.name, "port": 1}, "message": "down", "evidence": []} if some d in input.devices
`)},
}

// TestSpeculativeCauseDoesNotBury: a cause less severe or less certain than its effect does
// not nest the effect below it; the error ranks first on its own.
func TestSpeculativeCauseDoesNotBury(t *testing.T) {
	e, err := engine.New(context.Background(), engine.Options{}, engine.Source{Name: "test", FS: twoRules})
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Diagnose(context.Background(), &facts.Snapshot{Devices: []facts.Device{{Name: "mlx5_0"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Diagnoses) != 2 {
		t.Fatalf("%d diagnoses, want 2", len(r.Diagnoses))
	}
	first, second := r.Diagnoses[0], r.Diagnoses[1]
	if first.ID != "proven" || first.ExplainedBy != nil || second.ID != "speculative" || len(second.Explains) != 0 {
		t.Errorf("got #1 %s (explained by %v), #2 %s (explains %v); want the proven error first, on its own",
			first.ID, first.ExplainedBy, second.ID, second.Explains)
	}
}
