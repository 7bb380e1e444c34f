package main

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGenerated: docs/report.schema.json and docs/fleet-report.schema.json are what the report
// types give.
func TestGenerated(t *testing.T) {
	for typ, file := range map[string]string{"report": "report.schema.json", "fleet": "fleet-report.schema.json"} {
		want, err := build("../../..", typ)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile("../../../docs/" + file)
		if err != nil {
			t.Fatalf("%v; run `go generate ./...`", err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("docs/%s is stale; run `go generate ./...` (-want +got):\n%s", file, diff)
		}
	}
}
