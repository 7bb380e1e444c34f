package parse_test

import (
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// ibstat prints the total rate, not the width: "Rate: 10 (FDR10)" is 1X FDR10 (ibportstate of
// the same port says LinkWidthActive 1X) and "Rate: 14" is 1X FDR, neither a 4X link.
func TestIBStatRateIsTotal(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		rate    float64
		lane    string
		line    int
	}{
		{"ibstat/cx3-1x-fdr10.txt", 10, "FDR10", 11},
		{"ibstat/cx3-1x-fdr-width-set.txt", 14, "", 11},
	} {
		out, err := parse.IBStat(fixtures.Read(t, tc.fixture))
		// The author blanked the GUIDs: those lines are problems, the ports are kept.
		if _, partial := parse.AsProblems(err); err != nil && !partial {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		p := out.Devices[0].Ports[0]
		if *p.RateGbps != tc.rate || p.LaneSpeed != tc.lane || p.WidthLanes != nil || p.Evidence["rate_gbps"].Line != tc.line {
			t.Errorf("%s: rate %v lane %q width %v evidence %v", tc.fixture, *p.RateGbps, p.LaneSpeed, p.WidthLanes, p.Evidence["rate_gbps"])
		}
	}
}
