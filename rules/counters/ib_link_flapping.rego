# METADATA
# title: InfiniBand link goes down or retrains repeatedly
# description: >-
#   The link went down (link_downed) or had to retrain (link_error_recovery). Every down event aborts
#   in-flight RC traffic after retries are exhausted, so MPI/NCCL jobs fail, and it makes the SM
#   re-sweep the fabric. Peer reboots, driver reloads and firmware resets also count, so an absolute
#   value after boot is only a hint. Without counters, the kernel log shows it: an RDMA netdev (IPoIB
#   or RoCE) that the driver reports going down ("Link down", "lost carrier") or coming back up
#   ("Link up") again and again. A single down/up after boot or a cable reseat is not flapping: a
#   netdev is reported from 3 down events in one log, or 4 up events (the first is its bring-up),
#   leptonai/gpud's threshold (a port is "flapping" at >= 3 down events within its look-back). The
#   subject is the netdev, joined to its RDMA port only where the snapshot links them.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/etc/error_thresholds
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/infiniband/core/sysfs.c
#   - ref: https://github.com/leptonai/gpud/pull/931
# custom:
#   id: ib-link-flapping
#   area: counters
#   severity: error
#   confidence: medium
#   requires:
#     - facts: [port_counters]
#     - facts: [fabric_counters]
#     - facts: [kernel_log]
#   explains: [ib-port-xmit-discards, perftest-completion-error]
#   needs_reboot: false
#   fix:
#     - command: mlxlink -d {{pci}} -p {{port}} -m -c -e
#       note: module info, per-lane BER and the 'Troubleshooting Info' recommendation; reseat both ends, swap the cable or optic, try another switch port
#       when: {vendor: Mellanox}
#     - command: perfquery -C {{device}} -P {{port}} -R
#       note: clear the counters after the repair, then sample twice (rdmadoctor gather --sample) to confirm they stay flat
package rdmadoctor.rules.ib_link_flapping

import data.rdmadoctor.lib.counters
import data.rdmadoctor.lib.fabric
import data.rdmadoctor.lib.finding

# thresholds per counter: [increase over a sampled window, absolute value since boot]
# (rdma-core infiniband-diags/etc/error_thresholds; rule-catalog §3.6)
thresholds := {"link_downed": [0, 10], "link_error_recovery": [0, 10]}

# this host's ports, its kernel log, and the fabric's ports as ibdiagnet2 read them (lib/fabric)
findings := ((counters.findings(thresholds) | retraining) | kernel_flaps) | fabric.counter_findings(thresholds)

# at least this many down events (or one more up events) of a netdev in one kernel log
min_flaps := 3

# A port caught retraining in the snapshot itself.
retraining contains f if {
	some dev in input.devices
	some p in dev.ports
	p.physical_state == "LinkErrorRecovery"
	f := finding.port(dev, p, sprintf("%s port %d was caught in %s: the link is retraining", [dev.name, p.number, p.physical_state]), finding.evidence(p, ["physical_state", "state"]))
}

# The kernel log of one file shows an RDMA netdev going down and up repeatedly. Counts are per
# file: a sosreport holds the same events in dmesg and in /var/log/messages.
kernel_flaps contains f if {
	some pair in {[ev.netdev, object.get(ev.evidence, "path", "")] | some ev in link_events}
	[name, path] := pair
	evs := [ev | some ev in input.host.kernel_events; ev in link_events; ev.netdev == name; object.get(ev.evidence, "path", "") == path]
	downs := count([ev | some ev in evs; ev.kind in {"link_down", "lost_carrier"}])
	ups := count([ev | some ev in evs; ev.kind == "link_up"])
	max([downs, ups - 1]) >= min_flaps
	f := flap_finding(name, evs, flap_message(name, downs, ups))
	not counted_port(f.subject)
}

flap_message(name, 0, ups) := sprintf("%s came up %d times in the kernel log (each time after the first, it had lost its link): the link is flapping", [name, ups])

flap_message(name, downs, ups) := sprintf("%s went down %d times and came up %d times in the kernel log: the link is flapping", [name, downs, ups]) if downs > 0

link_events contains ev if {
	some ev in input.host.kernel_events
	ev.kind in {"link_down", "lost_carrier", "link_up"}
	ev.netdev != ""
}

# quote the first and the last lines of the run
flap_evidence(evs) := [ev.evidence | some ev in evs] if count(evs) <= 6

else := array.concat([ev.evidence | some ev in array.slice(evs, 0, 3)], [ev.evidence | some ev in array.slice(evs, count(evs) - 3, count(evs))])

# The snapshot links the netdev to an RDMA port: the finding is that port's.
flap_finding(name, evs, msg) := finding.port(dev, p, msg, flap_evidence(evs)) if {
	some nd in input.netdevs
	nd.name == name
	nd.rdma_device != ""
	some dev in input.devices
	dev.name == nd.rdma_device
	some p in dev.ports
	p.number == nd.rdma_port
} else := finding.netdev({"name": name, "pci_address": evs[0].pci_address}, msg, flap_evidence(evs)) if {
	object.get(evs[0], "pci_address", "") != ""
} else := finding.netdev({"name": name}, msg, flap_evidence(evs))

# A port the counters already report is not listed again from the kernel log.
counted_port(subject) if {
	some f in (counters.findings(thresholds) | retraining)
	f.subject.device == subject.device
	f.subject.port == subject.port
}
