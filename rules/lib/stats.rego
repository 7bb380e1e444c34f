# METADATA
# title: Ethernet and driver counter readings
# description: >-
#   Reads `ethtool -S` counters of a netdev (Netdev.stats / stats_deltas) and driver hw_counters of
#   an RDMA port (Port.hw_counters / counter_deltas) or device (Device.hw_counters /
#   hw_counter_deltas) the way lib/counters reads PortCounters: the increase over input.sample's
#   interval when there is one (medium confidence), else the value since boot or last clear (low).
# scope: package
package rdmadoctor.lib.stats

# netdev returns {"value", "delta", "evidence"} for ethtool -S counter name of nd; undefined when absent.
netdev(nd, name) := {"value": v, "delta": true, "evidence": ev} if {
	input.sample != null
	v := nd.stats_deltas[name]
	ev := [e | some k in [concat(".", ["stats_deltas", name]), concat(".", ["stats", name])]; e := nd.evidence[k]]
} else := {"value": v, "delta": false, "evidence": ev} if {
	v := nd.stats[name]
	ev := [e | e := nd.evidence[concat(".", ["stats", name])]]
}

# port_hw returns the reading of hw_counter name of port p.
port_hw(p, name) := {"value": v, "delta": true, "evidence": ev} if {
	input.sample != null
	v := p.counter_deltas[name]
	not p.counters[name]
	ev := [e | some k in [concat(".", ["counter_deltas", name]), concat(".", ["hw_counters", name])]; e := p.evidence[k]]
} else := {"value": v, "delta": false, "evidence": ev} if {
	v := p.hw_counters[name]
	ev := [e | e := p.evidence[concat(".", ["hw_counters", name])]]
}

# device_hw returns the reading of per-device hw_counter name of dev.
device_hw(dev, name) := {"value": v, "delta": true, "evidence": ev} if {
	input.sample != null
	v := dev.hw_counter_deltas[name]
	ev := [e | some k in [concat(".", ["hw_counter_deltas", name]), concat(".", ["hw_counters", name])]; e := dev.evidence[k]]
} else := {"value": v, "delta": false, "evidence": ev} if {
	v := dev.hw_counters[name]
	ev := [e | e := dev.evidence[concat(".", ["hw_counters", name])]]
}

# describe renders a reading: "rx_discards_phy +12 in 10s" or "rx_discards_phy 1842 since boot".
describe(name, r) := sprintf("%s +%d in %vs", [name, r.value, input.sample.interval_seconds]) if {
	r.delta
} else := sprintf("%s %d since boot or last clear", [name, r.value])

# confidence is medium for a measured increase, low for a value since boot.
confidence(r) := "medium" if r.delta

else := "low"

# over holds when a reading exceeds its limits: [for an increase, for a value since boot].
over(r, limits) if {
	r.delta
	r.value > limits[0]
}

over(r, limits) if {
	not r.delta
	r.value > limits[1]
}

# unique_evidence flattens the evidence of several readings, without repeats, in order.
unique_evidence(rs) := [e |
	all := [x | some r in rs; some x in r.evidence]
	some i, e in all
	not seen_before(all, i, e)
]

seen_before(all, i, e) if {
	some j, x in all
	j < i
	x == e
}

# any_delta holds when at least one reading is an increase over the sample window.
any_delta(rs) if {
	some r in rs
	r.delta
}
