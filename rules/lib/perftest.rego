# METADATA
# title: perftest runs
# description: >-
#   Helpers for the rules that judge perftest results (input.perftest, facts.PerftestRun): the
#   device and port a run used (by the device name its header or command line gives, never by
#   guess), the row a bandwidth or latency figure is read from, and whether both QP ends are one
#   port (a loopback run).
# scope: package
package rdmadoctor.lib.perftest

import data.rdmadoctor.lib.finding

# name is how a message names the run: the program of its file name, else its title.
name(r) := r.program if {
	object.get(r, "program", "") != ""
} else := r.title if {
	object.get(r, "title", "") != ""
} else := "perftest"

# device returns the snapshot's RDMA device the run used: the one device of the run's name
# (not a second capture of it). Undefined when the run names none or the snapshot lacks it.
device(r) := ds[0] if {
	n := object.get(r, "device", "")
	n != ""
	ds := [d | some d in input.devices; d.name == n; object.get(d, "capture", "") == ""]
	count(ds) == 1
}

# port returns the port of device d the run used: the run's port (its -i, or perftest's default
# 1 when the command line is known), else the device's only port. Undefined otherwise.
port(r, d) := ps[0] if {
	n := object.get(r, "port", null)
	n != null
	ps := [p | some p in d.ports; p.number == n]
	count(ps) == 1
} else := d.ports[0] if {
	object.get(r, "port", null) == null
	count(d.ports) == 1
}

# subject makes the finding about the port the run used when the snapshot has it, else about
# the node.
subject(r, msg, ev) := finding.port(d, p, msg, ev) if {
	d := device(r)
	p := port(r, d)
} else := finding.node(msg, ev)

# largest is the bandwidth row of the largest message size (the last one, when a capture
# repeats it).
largest(r) := rows[count(rows) - 1] if {
	all := object.get(r, "bandwidth", [])
	count(all) > 0
	m := max([x.bytes | some x in all])
	rows := [x | some x in all; x.bytes == m]
}

# smallest is the latency row of the smallest message size that has a typical (median) time.
smallest(r) := rows[0] if {
	all := [x | some x in object.get(r, "latency", []); x.typical_usec != null]
	count(all) > 0
	m := min([x.bytes | some x in all])
	rows := [x | some x in all; x.bytes == m]
}

# loopback holds when the local and the remote QP are on one port: the same non-zero LID (IB),
# or the same GID (RoCE). Both address lines are needed.
loopback(r) if {
	r.local.lid == r.remote.lid
	r.local.lid > 0
}

loopback(r) if {
	g := object.get(r.local, "gid", "")
	g != ""
	g == object.get(r.remote, "gid", "")
}

# across holds when both ends are known and differ.
across(r) if {
	r.local != null
	r.remote != null
	not loopback(r)
}

# fmt1 and fmt2 print a number with one or two decimals: a whole number arrives from the facts
# JSON as an integer, which sprintf's %f does not take.
fmt1(x) := sprintf("%.1f", [x]) if x != floor(x)

else := sprintf("%d.0", [x])

fmt2(x) := sprintf("%.2f", [x]) if x != floor(x)

else := sprintf("%d.00", [x])
