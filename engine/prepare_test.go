package engine

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLazyMatchesEager: compiling only the rules a snapshot runs, without the check-only stages
// (what diagnose does with the built-in rules), gives the report that compiling everything with
// every check gives, on every corpus case.
func TestLazyMatchesEager(t *testing.T) {
	ctx := context.Background()
	eager, err := New(ctx, Options{}, Builtin())
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := New(ctx, Options{SkipTypeCheck: true, Lazy: true}, Builtin())
	if err != nil {
		t.Fatal(err)
	}
	for d, s := range corpusSnapshots(t) {
		want, err := eager.Diagnose(ctx, s)
		if err != nil {
			t.Fatalf("%s: eager: %v", d, err)
		}
		got, err := lazy.Diagnose(ctx, s)
		if err != nil {
			t.Fatalf("%s: lazy: %v", d, err)
		}
		if diff := cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
			t.Errorf("%s: lazy report differs (-eager +lazy):\n%s", filepath.Base(d), diff)
		}
	}
	if len(lazy.byRun) == 0 {
		t.Error("the lazy engine compiled nothing")
	}
}

func TestModuleHeader(t *testing.T) {
	for _, tc := range []struct {
		src, want string
		ok        bool
	}{
		{"# METADATA\n# title: x\npackage a.b\n\nimport data.c\n", "# METADATA\n# title: x\npackage a.b\n", true},
		{"package a\nx := 1\n", "package a\n", true},
		{"# only a comment\npackage a", "# only a comment\npackage a", false}, // nothing after it
		{"  package a\nx := 1\n", "  package a\nx := 1\n", false},
	} {
		got, ok := moduleHeader([]byte(tc.src))
		if string(got) != tc.want || ok != tc.ok {
			t.Errorf("moduleHeader(%q) = %q, %v; want %q, %v", tc.src, got, ok, tc.want, tc.ok)
		}
	}
}
