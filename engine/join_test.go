package engine_test

import (
	"context"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// TestJoinSameReport: the rules every snapshot runs compiled apart from the others, and the two
// engines joined, give the report one compile of all of them gives, on corpus cases with rules
// of both kinds (and some rule packages compiled into both, through the ones they import).
func TestJoinSameReport(t *testing.T) {
	ctx := context.Background()
	set, err := engine.Load(engine.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	always := set.RunnableWith(nil)
	if len(always) == 0 {
		t.Fatal("no rule runs on every snapshot")
	}
	base, err := set.Prepare(ctx, engine.Options{SkipTypeCheck: true, Rules: always})
	if err != nil {
		t.Fatal(err)
	}
	snaps := engine.CorpusSnapshots(t)
	names := make([]string, 0, len(snaps))
	for name := range snaps {
		names = append(names, name)
	}
	sort.Strings(names)
	tried := 0
	for i, name := range names {
		if i%5 != 0 { // a fifth of the corpus: each case is three compiles
			continue
		}
		s := snaps[name]
		ids := set.Runnable(s)
		var rest []string
		for _, id := range ids {
			if !slices.Contains(always, id) {
				rest = append(rest, id)
			}
		}
		if len(rest) == 0 {
			continue
		}
		tried++
		whole, err := set.Prepare(ctx, engine.Options{SkipTypeCheck: true, Rules: ids})
		if err != nil {
			t.Fatal(err)
		}
		more, err := set.Prepare(ctx, engine.Options{SkipTypeCheck: true, Rules: rest})
		if err != nil {
			t.Fatal(err)
		}
		joined, err := engine.Join(base, more)
		if err != nil {
			t.Fatal(err)
		}
		if !joined.Compiled(ids) {
			t.Errorf("%s: the joined engine lacks a runnable rule", name)
		}
		want, err := whole.Diagnose(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := joined.Diagnose(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(report.Report{})); diff != "" {
			t.Errorf("%s: joined engine's report (-one compile +joined):\n%s", name, diff)
		}
	}
	if tried < 5 {
		t.Errorf("only %d cases tried", tried)
	}
	other, err := engine.Load(engine.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	elsewhere, err := other.Prepare(ctx, engine.Options{SkipTypeCheck: true, Rules: always})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := engine.Join(base, elsewhere); err == nil {
		t.Error("Join of engines of two sets: no error")
	}
}
