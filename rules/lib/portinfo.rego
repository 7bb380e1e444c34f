# METADATA
# title: ibportstate PortInfo
# description: >-
#   The PortInfo blocks ibportstate printed (facts port_info): a port's link width and lane speed as
#   supported, enabled and active. Only the latest block of the queried port counts (not the peer's,
#   not the state before the command's change). A block is joined to an RDMA port only on positive
#   evidence: the port's LID (ibstat Base lid) equals the block's, on the device of -C when given.
# scope: package
package rdmadoctor.lib.portinfo

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.mlxlink
import data.rdmadoctor.lib.rates

# current are the latest local blocks.
current contains pi if {
	some pi in input.port_info
	pi.latest == true
	not pi.peer == true
}

# of_port returns the current block about port p of dev; undefined when none joins it.
of_port(dev, p) := bs[0] if {
	is_number(p.lid)
	p.lid > 0
	bs := [pi | some pi in current; pi.lid == p.lid; same_device(pi, dev)]
	count(bs) == 1
}

same_device(pi, _) if object.get(pi, "device", "") == ""

same_device(pi, dev) if pi.device == dev.name

# device_port returns [dev, p] of the RDMA port a block is about; undefined without a LID match.
device_port(pi) := dps[0] if {
	dps := [[d, p] | some d in input.devices; some p in d.ports; p.lid == pi.lid; same_device(pi, d)]
	count(dps) == 1
}

active(pi) if pi.link_state == "Active"

# top_lane is the fastest lane speed of a list (["SDR", "QDR", "FDR10"] -> "FDR10").
top_lane(ls) := l if {
	count(ls) > 0
	best := max({rates.lane_rank[x] | some x in ls})
	some l in ls
	rates.lane_rank[l] == best
}

# finding_for is a finding about the RDMA port the block joins by LID, else about the -C device.
finding_for(pi, msg, ev) := object.union(finding.port(dp[0], dp[1], msg, ev), mlxlink.device_vars(dp[0])) if {
	dp := device_port(pi)
} else := {"subject": finding.compact({"device": object.get(pi, "device", "")}), "message": msg, "evidence": ev}

# where names the port of a block for messages.
where(pi) := sprintf("%s port %d", [dp[0].name, dp[1].number]) if {
	dp := device_port(pi)
} else := sprintf("the port of LID %v (port %v)", [pi.lid, pi.port_number])
