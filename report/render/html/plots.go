package html

import (
	"strconv"

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

// summaryInto adds one node's summary to the plots' tallies: each Active port's rate and width
// under its device's CA type, each device's firmware under its PSID, each port's error counters.
func summaryInto(host string, s *facts.NodeSummary, rates, firmware tally, counters map[string][]point) {
	for _, d := range s.Devices {
		model := d.CAType
		if model == "" {
			model = d.DeviceType
		}
		name := host
		if d.Name != "" {
			name += " " + d.Name
		} else if d.PCIAddress != "" {
			name += " " + d.PCIAddress
		}
		if d.PSID != "" {
			firmware.add(d.PSID, d.Firmware, name)
		}
		for _, p := range d.Ports {
			member := name + "/" + strconv.Itoa(p.Number)
			if p.State == "Active" && p.RateGbps != nil {
				rates.add(model, rateLabel(p), member)
			}
			for c, v := range p.Counters {
				counters[c] = append(counters[c], point{member, v})
			}
		}
	}
}

// rateLabel is "200 Gb/s 4X HDR" (the width and lane speed when known).
func rateLabel(p facts.SummaryPort) string {
	s := strconv.FormatFloat(*p.RateGbps, 'f', -1, 64) + " Gb/s"
	if p.WidthLanes != nil {
		s += " " + strconv.Itoa(*p.WidthLanes) + "X"
	}
	if p.LaneSpeed != "" {
		s += " " + p.LaneSpeed
	}
	return s
}
