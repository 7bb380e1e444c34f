package engine

import (
	"context"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// TestCombineAsJoined: the rules every snapshot runs and the others, compiled apart and each
// evaluated on one Input, put together by Combine give the findings, in the same order, and
// the failures that the joined engine's own evaluation gives, on corpus cases with rules of
// both kinds, one rule compiled into both parts (a package two compiles hold, as through an
// import, is counted once); DiagnoseWith of the joined engine takes that evaluation. An evaluation by another
// engine than the one Combine is given is not taken.
func TestCombineAsJoined(t *testing.T) {
	ctx := context.Background()
	set, err := Load(Builtin())
	if err != nil {
		t.Fatal(err)
	}
	always := set.RunnableWith(nil)
	base, err := set.Prepare(ctx, Options{SkipTypeCheck: true, Rules: always})
	if err != nil {
		t.Fatal(err)
	}
	snaps := CorpusSnapshots(t)
	names := make([]string, 0, len(snaps))
	for name := range snaps {
		names = append(names, name)
	}
	sort.Strings(names)
	tried, shared := 0, 0 // shared: cases where a rule with findings is in both parts
	for i, name := range names {
		s := snaps[name]
		found, _, err := base.evaluate(ctx, NewInput(s), base.runnable(availableGroups(s)))
		if err != nil {
			t.Fatal(err)
		}
		if i%6 != 0 && (len(found) == 0 || shared >= 4) {
			continue // every sixth case, and the first four where a rule every snapshot runs finds something
		}
		var rest []string
		for _, id := range set.Runnable(s) {
			if !slices.Contains(always, id) {
				rest = append(rest, id)
			}
		}
		if len(rest) == 0 {
			continue
		}
		tried++
		// A rule every snapshot runs that finds something here, compiled into both parts.
		want, wantFailed, err := base.evaluate(ctx, NewInput(s), base.runnable(availableGroups(s)))
		if err != nil {
			t.Fatal(err)
		}
		both := rest
		if len(want) > 0 {
			both = append(slices.Clone(rest), set.byPkg[want[0].pkg].ID)
			shared++
		}
		more, err := set.Prepare(ctx, Options{SkipTypeCheck: true, Rules: both})
		if err != nil {
			t.Fatal(err)
		}
		joined, err := Join(base, more)
		if err != nil {
			t.Fatal(err)
		}
		want, wantFailed, err = joined.evaluate(ctx, NewInput(s), joined.runnable(availableGroups(s)))
		if err != nil {
			t.Fatal(err)
		}
		in := NewInput(s)
		ev := Combine(joined, more.EvaluateInput(ctx, in), base.EvaluateInput(ctx, in))
		<-ev.Done()
		if ev.err != nil {
			t.Fatalf("%s: %v", name, ev.err)
		}
		if !reflect.DeepEqual(ev.findings, want) || !reflect.DeepEqual(ev.failed, wantFailed) {
			t.Errorf("%s: Combine gave %d findings (failed %v), the joined engine %d (failed %v)", name, len(ev.findings), ev.failed, len(want), wantFailed)
		}
		if !ev.takes(joined, s) {
			t.Errorf("%s: DiagnoseWith does not take the combined evaluation", name)
		}
		if Combine(more, base.EvaluateInput(ctx, in)).takes(joined, s) {
			t.Errorf("%s: an evaluation combined for another engine was taken", name)
		}
		// A rule that failed in a part (timed out) is reported from the combined evaluation,
		// not evaluated again: the --timeout is not spent twice.
		timedOut := more.EvaluateInput(ctx, in)
		<-timedOut.Done()
		pkg := set.byID[rest[0]].pkg
		timedOut.failed = map[string]string{pkg: "evaluation timed out after 1ms"}
		r, err := joined.DiagnoseWith(ctx, s, Combine(joined, timedOut, base.EvaluateInput(ctx, in)))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(r.Skipped, func(sk report.Skipped) bool { return sk.ID == rest[0] && sk.Failed }) {
			t.Errorf("%s: %s failed in the combined evaluation but is not skipped as failed: %+v", name, rest[0], r.Skipped)
		}
	}
	if tried < 5 || shared == 0 {
		t.Errorf("%d cases tried, %d with a rule that finds something in both parts: the test shows nothing", tried, shared)
	}
}
