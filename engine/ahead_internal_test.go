package engine

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// TestRuleInputLeavesOutUnrecognized: the rules are given every source but those no parser
// recognised; the snapshot itself keeps them.
func TestRuleInputLeavesOutUnrecognized(t *testing.T) {
	s := &facts.Snapshot{Sources: []facts.Source{
		{Name: "ibstat", Status: facts.StatusOK},
		{Name: "unrecognized", Origin: "notes.txt", Status: facts.StatusUnrecognized},
		{Name: "lspci", Status: facts.StatusError, Error: "unreadable"},
		{Name: "unrecognized", Origin: "sos_commands/*", Status: facts.StatusUnrecognized, Error: "12 other sosreport files not relevant to RDMA"},
		{Name: "symlink", Origin: "etc/x", Status: facts.StatusUnrecognized},
	}, Available: []string{"ports"}}
	in := ruleInput(s)
	want := []facts.Source{{Name: "ibstat", Status: facts.StatusOK}, {Name: "lspci", Status: facts.StatusError, Error: "unreadable"}}
	if diff := cmp.Diff(want, in.Sources); diff != "" {
		t.Errorf("rule input's sources (-want +got):\n%s", diff)
	}
	if len(s.Sources) != 5 || len(in.Available) != 1 {
		t.Errorf("snapshot changed: %d sources; rule input available %v", len(s.Sources), in.Available)
	}
}

// memlockSnapshot is a node whose memlock limit (64 KiB) the test rules' memlock-low finds too
// low, with extra sources appended.
func memlockSnapshot(kib int64, extra ...facts.Source) *facts.Snapshot {
	sources := append([]facts.Source{{Name: "ulimit", Origin: "ulimit_-a", Status: facts.StatusOK}}, extra...)
	return &facts.Snapshot{
		SchemaVersion: facts.SchemaVersion,
		Source:        facts.SourceInfo{Kind: "captures", Path: "node01"},
		Host: facts.Host{Hostname: "node01", Memlock: &facts.MemlockLimit{SoftKiB: &kib,
			Evidence: facts.Evidence{Source: "ulimit", Path: "ulimit_-a", Line: 7, Text: "max locked memory (kbytes, -l) 64"}}},
		Sources:   sources,
		Available: facts.Available(sources),
	}
}

// TestEvaluationTaken: DiagnoseWith takes the evaluation ahead (here marked, to tell it from an
// evaluation made again) for a snapshot the rules see the same, and never for one whose facts
// differ, from another engine, or that failed somewhere.
func TestEvaluationTaken(t *testing.T) {
	ctx := context.Background()
	testEngine := func() *Engine {
		e, err := New(ctx, Options{}, Source{Name: "testdata/rules", FS: os.DirFS("testdata/rules")})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	e, other := testEngine(), testEngine()
	count := facts.Source{Name: "unrecognized", Origin: "sos_commands/*", Status: facts.StatusUnrecognized, Error: "40 other sosreport files not relevant to RDMA"}
	later := count
	later.Error = "2000 other sosreport files not relevant to RDMA"
	ahead := func(by *Engine, s *facts.Snapshot, failed bool) *Evaluation {
		ev := by.Evaluate(ctx, s)
		<-ev.Done()
		if ev.err != nil || len(ev.findings) == 0 {
			t.Fatalf("evaluation ahead: %v, %d findings", ev.err, len(ev.findings))
		}
		for i := range ev.findings {
			ev.findings[i].Message = "from the evaluation ahead"
		}
		if failed {
			ev.failed = map[string]string{"memlock_low": "evaluation timed out"}
		}
		return ev
	}
	for _, tc := range []struct {
		name  string
		ev    *Evaluation
		s     *facts.Snapshot
		taken bool
	}{
		{"same facts, more files not read", ahead(e, memlockSnapshot(64, count), false), memlockSnapshot(64, later), true},
		{"same snapshot", ahead(e, memlockSnapshot(64), false), memlockSnapshot(64), true},
		{"other facts", ahead(e, memlockSnapshot(64, count), false), memlockSnapshot(32, later), false},
		{"a source more", ahead(e, memlockSnapshot(64), false), memlockSnapshot(64, facts.Source{Name: "lsmod", Status: facts.StatusError, Error: "unreadable"}), false},
		{"other engine", ahead(other, memlockSnapshot(64), false), memlockSnapshot(64), false},
		{"failed ahead", ahead(e, memlockSnapshot(64), true), memlockSnapshot(64), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := e.DiagnoseWith(ctx, tc.s, tc.ev)
			if err != nil {
				t.Fatal(err)
			}
			taken := false
			for _, d := range r.Diagnoses {
				taken = taken || d.Message == "from the evaluation ahead"
			}
			if taken != tc.taken || len(r.Diagnoses) == 0 {
				t.Errorf("taken = %v, want %v (%d diagnoses)", taken, tc.taken, len(r.Diagnoses))
			}
		})
	}
}
