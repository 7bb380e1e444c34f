package engine

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/rules"
)

// TestBuiltinAsDiagnoseRunsIt: the built-in rules prepared the way `rdmadoctor diagnose` prepares
// them (METADATA read from the headers, only the rules that can run on the snapshot compiled,
// without the check-only stages) give, on every corpus case, the report that the whole set
// compiled with every check gives.
func TestBuiltinAsDiagnoseRunsIt(t *testing.T) {
	ctx := context.Background()
	eager, err := New(ctx, Options{}, Source{Name: "rules", FS: rules.FS})
	if err != nil {
		t.Fatal(err)
	}
	set, err := Load(Builtin())
	if err != nil {
		t.Fatal(err)
	}
	for d, s := range corpusSnapshots(t) {
		want, err := eager.Diagnose(ctx, s)
		if err != nil {
			t.Fatalf("%s: eager: %v", d, err)
		}
		e, err := set.Prepare(ctx, Options{SkipTypeCheck: true, Rules: set.Runnable(s)})
		if err != nil {
			t.Fatalf("%s: prepare: %v", d, err)
		}
		got, err := e.Diagnose(ctx, s)
		if err != nil {
			t.Fatalf("%s: diagnose: %v", d, err)
		}
		if diff := cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
			t.Errorf("%s: report differs (-whole set, checked +runnable rules, unchecked):\n%s", filepath.Base(d), diff)
		}
	}
}

// TestHeaderMetadata: the METADATA Load reads from the rules' headers is what the whole files
// give; every module of the built-in rules, libraries too, is read by its header only.
func TestHeaderMetadata(t *testing.T) {
	whole, err := Load(Source{Name: "rules", FS: rules.FS})
	if err != nil {
		t.Fatal(err)
	}
	headers, err := Load(Builtin())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(whole.Rules, headers.Rules, cmp.AllowUnexported(Rule{})); diff != "" {
		t.Errorf("rules differ (-whole +headers):\n%s", diff)
	}
	n := 0
	for _, m := range headers.modules {
		if m.header {
			n++
		}
	}
	if n != len(headers.modules) {
		t.Errorf("%d of %d modules (rules and libraries) read by their header", n, len(headers.modules))
	}
}

// TestPrepareStopped: a compile whose Options.Stop is closed ends with ErrStopped; one whose
// Stop stays open compiles.
func TestPrepareStopped(t *testing.T) {
	ctx := context.Background()
	set, err := Load(Builtin())
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	e, err := set.Prepare(ctx, Options{SkipTypeCheck: true, Rules: []string{"ib-port-no-subnet-manager"}, Stop: stop})
	if err != nil || !e.Compiled([]string{"ib-port-no-subnet-manager"}) || e.Compiled([]string{"ib-port-no-subnet-manager", "pcie-acs-redirect-blocks-p2p"}) {
		t.Fatalf("Prepare with an open Stop: %v", err)
	}
	close(stop)
	if _, err := set.Prepare(ctx, Options{SkipTypeCheck: true, Stop: stop}); !errors.Is(err, ErrStopped) {
		t.Errorf("Prepare with a closed Stop: %v, want ErrStopped", err)
	}
}
