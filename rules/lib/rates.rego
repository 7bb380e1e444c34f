# METADATA
# title: InfiniBand lane speeds
# description: >-
#   Lane speed names and their data rate per lane in Gb/s as the kernel's rate_show and ibstat print
#   them (rule-catalog §3.2; kernel drivers/infiniband/core/sysfs.c, rdma-core ibstat.c).
# scope: package
package rdmadoctor.lib.rates

lane_gbps := {
	"SDR": 2.5,
	"DDR": 5,
	"QDR": 10,
	"FDR10": 10,
	"FDR": 14,
	"EDR": 25,
	"HDR": 50,
	"NDR": 100,
	"XDR": 200,
}

# lane_rank orders lane speeds by generation (FDR10 sits between QDR and FDR).
lane_rank := {
	"SDR": 1,
	"DDR": 2,
	"QDR": 3,
	"FDR10": 4,
	"FDR": 5,
	"EDR": 6,
	"HDR": 7,
	"NDR": 8,
	"XDR": 9,
}

# lanes_of_rate maps a lane rate back to its name (FDR10 prints as 10, so 10 reads as QDR).
lane_of_gbps := {
	2.5: "SDR",
	5: "DDR",
	10: "QDR",
	14: "FDR",
	25: "EDR",
	50: "HDR",
	100: "NDR",
	200: "XDR",
}

# port_lanes returns the possible lane speed names of an Active port: the one it reports, or,
# when only the total rate is known (ibstat), every lane speed that a 4X or 2X link could give.
port_lanes(p) := {p.lane_speed} if {
	p.lane_speed != ""
} else := {l | l := lane_of_gbps[p.rate_gbps / p.width_lanes]} if {
	p.width_lanes > 0
} else := {l | some w in [4, 2]; l := lane_of_gbps[p.rate_gbps / w]}

# best_lane is the fastest candidate lane of p; undefined when the rate is unknown.
best_lane(p) := l if {
	ls := port_lanes(p)
	count(ls) > 0
	top := max({lane_rank[x] | some x in ls})
	some l in ls
	lane_rank[l] == top
}

# possible_widths are the widths in lanes that give port p's total rate with a lane speed that
# exists (its own lane speed when known): ibstat prints only the total, so "Rate: 14" can only
# be 1X FDR, "Rate: 10 (FDR10)" only 1X FDR10, while "Rate: 10" is 4X SDR or 1X QDR.
possible_widths(p) := {w |
	is_number(p.rate_gbps)
	some w in [1, 2, 4, 8, 12]
	lane_fits(p, p.rate_gbps / w)
}

lane_fits(p, g) if lane_gbps[p.lane_speed] == g

lane_fits(p, g) if {
	object.get(p, "lane_speed", "") == ""
	lane_of_gbps[g]
}
