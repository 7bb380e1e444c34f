package engine

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSkipTypeCheckMatchesEager: compiling without the check-only stages gives the report that
// compiling with every check gives, on every corpus case.
func TestSkipTypeCheckMatchesEager(t *testing.T) {
	ctx := context.Background()
	eager, err := New(ctx, Options{}, Builtin())
	if err != nil {
		t.Fatal(err)
	}
	unchecked, err := New(ctx, Options{SkipTypeCheck: true}, Builtin())
	if err != nil {
		t.Fatal(err)
	}
	for d, s := range corpusSnapshots(t) {
		want, err := eager.Diagnose(ctx, s)
		if err != nil {
			t.Fatalf("%s: eager: %v", d, err)
		}
		got, err := unchecked.Diagnose(ctx, s)
		if err != nil {
			t.Fatalf("%s: unchecked: %v", d, err)
		}
		if diff := cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
			t.Errorf("%s: unchecked report differs (-eager +unchecked):\n%s", filepath.Base(d), diff)
		}
	}
}
