package engine_test

import (
	"context"
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// BenchmarkFleetDiagnose evaluates the built-in fleet rules on 1,000 copies of corpus case 005's
// summary (eight ConnectX-7 and a BlueField bond per node): the rules' aggregates must stay
// linear in the nodes (each is a complete rule, computed once per evaluation).
func BenchmarkFleetDiagnose(b *testing.B) {
	one := fleetOf(b, map[string]fstest.MapFS{"x": caseFS(b, "005")}).Nodes[0]
	doc := &facts.Fleet{SchemaVersion: facts.FleetSchemaVersion}
	for i := range 1000 {
		n := one
		n.Host = fmt.Sprintf("node%04d", i)
		doc.Nodes = append(doc.Nodes, n)
	}
	fe := builtinFleet(b)
	b.ResetTimer()
	for range b.N {
		if _, _, err := fe.Diagnose(context.Background(), doc); err != nil {
			b.Fatal(err)
		}
	}
}
