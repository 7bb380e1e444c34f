# METADATA
# title: Port counters
# description: >-
#   Reads PortCounters of a port: the increase over a two-sample window when the snapshot has one
#   (input.sample, port counter_deltas), else the absolute value since boot or last clear (sysfs
#   counters/, or perfquery for this device and port), which only supports low confidence. Widths
#   and saturation values from kernel drivers/infiniband/core/sysfs.c (rule-catalog §3.6).
# scope: package
package rdmadoctor.lib.counters

import data.rdmadoctor.lib.finding

# saturation is the value a PortCounters field sticks at.
saturation := {
	"symbol_error": 65535,
	"link_error_recovery": 255,
	"link_downed": 255,
	"port_rcv_errors": 65535,
	"port_rcv_remote_physical_errors": 65535,
	"port_xmit_discards": 65535,
	"local_link_integrity_errors": 15,
	"excessive_buffer_overrun_errors": 15,
	"VL15_dropped": 65535,
}

# read returns {"value", "delta", "evidence"} for counter name of port p of dev: delta true when
# value is an increase over input.sample's interval. Undefined when the counter is not known.
read(dev, p, name) := {"value": v, "delta": true, "evidence": ev} if {
	input.sample != null
	v := p.counter_deltas[name]
	ev := [e | some k in [concat(".", ["counter_deltas", name]), concat(".", ["counters", name])]; e := p.evidence[k]]
} else := {"value": v, "delta": false, "evidence": ev} if {
	v := p.counters[name]
	ev := [e | some k in [concat(".", ["counters", name])]; e := p.evidence[k]]
} else := {"value": v, "delta": false, "evidence": ev} if {
	# only a query that named no remote target read this port (perfquery -C dev -P port)
	pcs := [pc |
		some pc in input.fabric.perf_counters
		pc.local == true
		pc.device == dev.name
		pc.port == p.number
	]
	v := pcs[0].counters[name]
	ev := [e | e := pcs[0].evidence[concat(".", ["counters", name])]]
}

# saturated holds when an absolute value sits at the counter's maximum: the true count is at least that.
saturated(name, r) if {
	not r.delta
	r.value >= saturation[name]
}

# describe renders a reading for a message: "+12 in 60s", "≥ 65535 (saturated)", "1842 since boot".
describe(name, r) := sprintf("+%d in %vs", [r.value, input.sample.interval_seconds]) if {
	r.delta
} else := sprintf(">= %d (counter saturated)", [r.value]) if {
	saturated(name, r)
} else := sprintf("%d since boot or last clear", [r.value])

# confidence is medium for a measured increase and low for an absolute value.
confidence(r) := "medium" if {
	r.delta
} else := "low"

# findings builds one finding per Active InfiniBand port and counter whose reading exceeds its
# thresholds: {name: [limit for an increase over the window, limit for an absolute value]}.
findings(thresholds) := {f |
	some dev in input.devices
	some p in dev.ports
	p.link_layer == "InfiniBand"
	p.state == "Active"
	some name, limits in thresholds
	r := read(dev, p, name)
	r.value > limit(r, limits)
	base := finding.port(dev, p, sprintf("%s port %d %s: %s", [dev.name, p.number, name, describe(name, r)]), r.evidence)
	f := finding.with_fields(base, {"confidence": confidence(r)})
}

limit(r, limits) := limits[0] if {
	r.delta
} else := limits[1]
