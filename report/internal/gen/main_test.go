package main

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGenerated: docs/report.schema.json is what the report types give.
func TestGenerated(t *testing.T) {
	want, err := build("../../..")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../../docs/report.schema.json")
	if err != nil {
		t.Fatalf("%v; run `go generate ./...`", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("docs/report.schema.json is stale; run `go generate ./...` (-want +got):\n%s", diff)
	}
}
