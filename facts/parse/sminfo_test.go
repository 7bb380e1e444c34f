package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestSMInfo(t *testing.T) {
	got, err := parse.SMInfo(fixtures.Read(t, "sminfo/master.txt"))
	if err != nil {
		t.Fatal(err)
	}
	act := int64(5568705)
	want := parse.SMInfoOutput{SMs: []facts.SMInfo{{SMLID: ibInt(4), SMGUID: "0x08c0eb0300f6fc26", ActCount: &act, Priority: ibInt(15),
		State: "SMINFO_MASTER", Evidence: ibEv(1, "sminfo: sm lid 4 sm guid 0x8c0eb0300f6fc26, activity count 5568705 priority 15 state 3 SMINFO_MASTER")}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Four nodes' answers, each with "state 3 SMINFO_MASTER" wrapped onto its own line (corpus 048).
func TestSMInfoWrapped(t *testing.T) {
	got, err := parse.SMInfo(fixtures.Read(t, "sminfo/wrapped-multi-node.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.SMs) != 4 {
		t.Fatalf("got %d answers, want 4", len(got.SMs))
	}
	for _, sm := range got.SMs {
		if sm.State != "SMINFO_MASTER" || *sm.SMLID != 2 || sm.SMGUID != "0x0002c90200259201" {
			t.Errorf("got %s lid %d guid %s", sm.State, *sm.SMLID, sm.SMGUID)
		}
	}
	if *got.SMs[3].ActCount != 6884 {
		t.Errorf("activity count %d, want 6884", *got.SMs[3].ActCount)
	}
}

func FuzzSMInfo(f *testing.F) {
	ibSeed(f, "sminfo")
	f.Fuzz(func(t *testing.T, b []byte) {
		parse.SMInfo(b) //nolint:errcheck // only panics matter here
	})
}
