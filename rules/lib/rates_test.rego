package rdmadoctor.lib.rates_test

import data.rdmadoctor.lib.rates

test_lane_from_reported_speed if {
	rates.best_lane({"lane_speed": "EDR", "rate_gbps": 25, "width_lanes": 1}) == "EDR"
}

test_lane_from_rate_and_width if {
	rates.best_lane({"rate_gbps": 100, "width_lanes": 2}) == "HDR"
}

test_lane_from_rate_alone_takes_the_fastest_reading if {
	# ibstat prints Rate 100 only: 4X EDR or 2X HDR (HDR100)
	rates.best_lane({"rate_gbps": 100}) == "HDR"
	rates.best_lane({"rate_gbps": 56}) == "FDR"
	not rates.best_lane({"rate_gbps": 7})
}

test_possible_widths_from_ibstat_rate if {
	rates.possible_widths({"rate_gbps": 14}) == {1}
	rates.possible_widths({"rate_gbps": 10, "lane_speed": "FDR10"}) == {1}
	rates.possible_widths({"rate_gbps": 10}) == {1, 2, 4}
	4 in rates.possible_widths({"rate_gbps": 56})
	rates.possible_widths({"rate_gbps": null}) == set()
}
