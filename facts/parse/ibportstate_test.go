package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestIBPortState(t *testing.T) {
	// corpus 029: a ConnectX-3 Pro port right after `ibportstate ... enable`, still Polling.
	got, err := parse.IBPortState(fixtures.Read(t, "ibportstate/cx3pro-enable-polling-excerpt.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := []facts.PortInfo{{
		Title: "After PortInfo set", Latest: true, LID: ibInt(38), PortNumber: ibInt(1),
		LinkState: "Down", PhysLinkState: "Polling",
		WidthSupported: []int{1, 4}, WidthEnabled: []int{1, 4}, WidthActive: ibInt(4),
		SpeedSupported: []string{"SDR", "DDR", "QDR"}, SpeedEnabled: []string{"SDR", "DDR", "QDR"}, SpeedActive: "QDR",
		Evidence: facts.EvidenceMap{
			"lid":             ibEv(2, "# Port info: Lid 38 port 1"),
			"port_number":     ibEv(2, "# Port info: Lid 38 port 1"),
			"link_state":      ibEv(3, "LinkState:.......................Down"),
			"phys_link_state": ibEv(4, "PhysLinkState:...................Polling"),
			"width_supported": ibEv(8, "LinkWidthSupported:..............1X or 4X"),
			"width_enabled":   ibEv(9, "LinkWidthEnabled:................1X or 4X"),
			"width_active":    ibEv(10, "LinkWidthActive:.................4X"),
			"speed_supported": ibEv(11, "LinkSpeedSupported:..............2.5 Gbps or 5.0 Gbps or 10.0 Gbps"),
			"speed_enabled":   ibEv(12, "LinkSpeedEnabled:................2.5 Gbps or 5.0 Gbps or 10.0 Gbps"),
			"speed_active":    ibEv(13, "LinkSpeedActive:.................10.0 Gbps"),
		},
	}}
	if diff := cmp.Diff(want, got.Blocks); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// The extended speed (FDR, 14.0625 Gbps) is the active one when LinkSpeedExtActive is set; the
// Mellanox extended PortInfo adds FDR10; the block after the change is the latest.
func TestIBPortStateExtendedSpeeds(t *testing.T) {
	got, err := parse.IBPortState(fixtures.Read(t, "ibportstate/cx3-width-1x-espeed-reset.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Blocks) != 2 {
		t.Fatalf("got %d blocks, want 2", len(got.Blocks))
	}
	type view struct {
		Title                     string
		Latest                    bool
		Supported, Enabled        []string
		Active                    string
		WidthEnabled              []int
		WidthActive               int
		ActiveLine, EnabledWidthL int
	}
	var gotv []view
	for _, b := range got.Blocks {
		gotv = append(gotv, view{b.Title, b.Latest, b.SpeedSupported, b.SpeedEnabled, b.SpeedActive, b.WidthEnabled, *b.WidthActive,
			b.Evidence["speed_active"].Line, b.Evidence["width_enabled"].Line})
	}
	wantv := []view{
		{"Initial CA/RT PortInfo", false, []string{"SDR", "DDR", "QDR", "FDR10", "FDR"}, []string{"SDR", "DDR", "QDR", "FDR10", "FDR"}, "FDR", []int{1}, 1, 16, 9},
		// LinkSpeedExtEnabled 0 after the set: FDR no longer enabled; no Mellanox block here.
		{"After PortInfo set", true, []string{"SDR", "DDR", "QDR", "FDR"}, []string{"SDR", "DDR", "QDR"}, "FDR", []int{1}, 1, 41, 34},
	}
	if diff := cmp.Diff(wantv, gotv); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// "No Extended Speed" and the Mellanox LinkSpeedActive bit 0: the link runs FDR10 (ibstat then
// prints "Rate: 10 (FDR10)", fixtures/ibstat/cx3-1x-fdr10.txt).
func TestIBPortStateFDR10(t *testing.T) {
	got, err := parse.IBPortState(fixtures.Read(t, "ibportstate/cx3-query-1x-fdr10.txt"))
	if err != nil {
		t.Fatal(err)
	}
	b := got.Blocks[0]
	if b.SpeedActive != "FDR10" || b.Evidence["speed_active"].Text != "LinkSpeedActive:.................0x01" || *b.WidthActive != 1 || b.Title != "CA/RT PortInfo" {
		t.Errorf("got %s (%q), width %d, title %q", b.SpeedActive, b.Evidence["speed_active"].Text, *b.WidthActive, b.Title)
	}
	// The evidence of a speed list is the line of its fastest speed.
	if got := b.Evidence["speed_enabled"].Text; got != "LinkSpeedExtEnabled:.............14.0625 Gbps" {
		t.Errorf("speed_enabled evidence %q", got)
	}
}

// A value that is not a width or a speed is a problem of its line; the rest is kept.
func TestIBPortStateBadValue(t *testing.T) {
	in := string(fixtures.Read(t, "ibportstate/cx3pro-enable-polling-excerpt.txt"))
	in = in[:len(in)-len("10.0 Gbps\n")] + "fast\n"
	got, err := parse.IBPortState([]byte(in))
	ps, ok := parse.AsProblems(err)
	if !ok || len(ps) != 1 || ps[0].Line != 13 {
		t.Fatalf("problems %v", err)
	}
	if len(got.Blocks) != 1 || got.Blocks[0].SpeedActive != "" || *got.Blocks[0].WidthActive != 4 {
		t.Errorf("got %+v", got.Blocks)
	}
}

func FuzzIBPortState(f *testing.F) {
	ibSeed(f, "ibportstate")
	f.Fuzz(func(t *testing.T, b []byte) {
		parse.IBPortState(b) //nolint:errcheck // only panics matter here
	})
}
