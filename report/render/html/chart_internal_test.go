package html

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	factsbuild "github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/facts/summary"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// TestChartsOnCorpusDevices draws the bar and strip plots from the summaries (summaryInto) of the
// real corpus snapshots (CA type, PSID, firmware, Active port rates, port counters), one node per case: the
// geometry stays inside the plot, the odd ones out are named, nothing is dropped silently.
func TestChartsOnCorpusDevices(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join(fixtures.CorpusDir(t), "*"))
	rates, firmware := tally{}, tally{}
	counters := map[string][]point{}
	for _, d := range dirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			continue
		}
		fsys, info, err := source.Open(d)
		if err != nil {
			t.Fatal(err)
		}
		s, err := factsbuild.Snapshot(fsys, info)
		if err != nil {
			t.Fatal(err)
		}
		host := filepath.Base(d)[:3]
		sum := summary.Summarize(s, host)
		summaryInto(host, &sum, rates, firmware, counters)
	}
	if len(rates) == 0 || len(firmware) == 0 || len(counters) == 0 {
		t.Fatalf("corpus gave %d CA types with rates, %d PSIDs, %d counters", len(rates), len(firmware), len(counters))
	}
	for _, c := range []chart{bars("r", "", "", "empty", "ports", rates), bars("f", "", "", "empty", "devices", firmware)} {
		if c.Empty != "" || len(c.Bars) == 0 {
			t.Fatalf("%s: nothing drawn", c.ID)
		}
		several := 0
		for _, row := range c.Bars {
			end := float64(plotLeft)
			for _, s := range row.Segs {
				if s.X < float64(plotLeft)-0.01 || s.W <= 0 {
					t.Errorf("%s %s: segment at %.1f width %.1f", c.ID, row.Label, s.X, s.W)
				}
				end = s.X + s.W
			}
			if end > float64(plotLeft+plotWidth)+0.01 {
				t.Errorf("%s %s: bar ends at %.1f, past the plot", c.ID, row.Label, end)
			}
			if len(row.Segs) > 1 {
				several++
			}
		}
		if several != len(c.Notes) {
			t.Errorf("%s: %d rows with several values, %d notes naming them", c.ID, several, len(c.Notes))
		}
	}
	s := strips("c", "", "", "empty", counters)
	if s.Empty != "" || len(s.Strips) == 0 || len(s.Ticks) < 2 {
		t.Fatalf("strips: %d rows, %d ticks, empty %q", len(s.Strips), len(s.Ticks), s.Empty)
	}
	for _, row := range s.Strips {
		if len(row.Marks) != 1 || !strings.Contains(row.Marks[0].Title, "highest") {
			t.Errorf("%s: highest not named: %+v", row.Label, row.Marks)
		}
		for _, d := range row.Dots {
			if d.X < float64(plotLeft)-0.5 || d.X > float64(plotLeft+plotWidth)+0.5 {
				t.Errorf("%s: dot at %.1f outside the plot", row.Label, d.X)
			}
		}
	}
}
