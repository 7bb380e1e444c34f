# METADATA
# title: perftest bandwidth below what the link and the PCIe path allow
# description: >-
#   A perftest bandwidth run (ib_write_bw, ib_read_bw, ib_send_bw) reached less than 90% of the
#   rate its port runs at (ibstat/sysfs rate, else the netdev's ethtool speed), judged on the BW
#   average of its largest message size, when that is at least perftest's default 65536 bytes
#   (smaller messages measure message rate). The 90% is the operators' rule of thumb for RDMA
#   bandwidth (rdmadoctor's seed article on InfiniBand setup and tuning, §5.1: "bandwidth should
#   reach at least 90% of the nominal rate"). The message names the limit of the path: the
#   card's PCIe link from LnkSta, usable = GT/s x lanes x line coding (8b/10b up to 5 GT/s,
#   128b/130b from 8 GT/s; kernel PCIE_SPEED2MBS_ENC) x 256/(256+24) (24 bytes of framing,
#   sequence number, 4DW header and LCRC per 256-byte MaxPayload TLP: payload / (payload + overhead), Intel AN 855 "Throughput for Posted Writes", with a 4DW header for 64-bit host addresses), e.g. 8 GT/s
#   x8 = 63.0 Gb/s coded, about 57.6 Gb/s of payload, so a 100G port behind it tops out near
#   56 Gb/s. When the PCIe link is the lower limit it says so; when the test is below 90% of what
#   even PCIe allows, or the causes' evidence is not in the snapshot, it says what to gather.
#   Bidirectional runs (-b) report both directions together and are judged against one
#   direction's rate, so they can only under-report a shortfall. A run whose device or port the
#   snapshot does not have, or whose port rate and PCIe link it lacks, is listed as not judged
#   (skipped, with the reason), never as fine.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/perftest
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/pci/pci.h
#   - ref: https://intel.com/content/www/us/en/docs/programmable/683504/current/throughput-for-posted-writes.html
# custom:
#   id: perftest-bandwidth-below-path-limit
#   area: perf
#   severity: warning
#   confidence: medium
#   requires: [perftest]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: lspci -vvv -s {{pci}}
#       note: LnkSta speed and width against LnkCap; a x8 or older-generation link caps the port - move the card to a CPU-attached x16 slot of its generation
#     - command: ibstat {{device}}
#       note: the port's rate and width (a link trained at fewer lanes or a lower speed)
#     - command: cat /sys/class/infiniband/{{device}}/device/numa_node
#       note: run both ends on the NIC's NUMA node (numactl -N <node> ib_write_bw ...) and check IRQ affinity and the CPU governor
#     - command: ib_write_bw -d {{device}} -i {{port}} -q 4 -s 1048576 --report_gbits <server>
#       note: re-run with 1 MiB messages and 4 QPs (the perftest maintainers' advice, linux-rdma/perftest#252) to rule out a single-QP limit
package rdmadoctor.rules.perftest_bandwidth_below_path_limit

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.join
import data.rdmadoctor.lib.pcie
import data.rdmadoctor.lib.perftest

# share is the part of the reference rate a large-message run is expected to reach (seed §5.1).
share := 0.9

# min_bytes is perftest's default bandwidth message size (perftest_parameters.h DEF_SIZE_BW).
min_bytes := 65536

findings contains f if {
	some r in input.perftest
	r.kind == "bandwidth"
	row := perftest.largest(r)
	row.bytes >= min_bytes
	d := perftest.device(r)
	p := perftest.port(r, d)
	ref := reference(d, p)
	row.average_gbps < share * ref.gbps
	msg := concat("", [
		sprintf("%s reached %s Gb/s with %d-byte messages%s = %d%% of %s (%s port %d)", [
			perftest.name(r), perftest.fmt1(row.average_gbps), row.bytes, both(r),
			round((100 * row.average_gbps) / ref.gbps), ref.text, d.name, p.number,
		]),
		path_note(d, ref, row.average_gbps),
		gather(r, d, p),
	])
	ev := array.concat(array.concat([row.evidence], finding.evidence(r, ["device", "title"])), ref.evidence)
	f := finding.port(d, p, msg, array.concat(ev, pcie_evidence(d, ref)))
}

# A run the snapshot cannot judge is listed as not judged (the engine names it under skipped):
# never a silent pass, and no diagnosis either.
findings contains f if {
	some r in input.perftest
	r.kind == "bandwidth"
	row := perftest.largest(r)
	row.bytes >= min_bytes
	why := unjudged(r)
	msg := sprintf("%s reached %s Gb/s with %d-byte messages, but %s; gather ibstat and lspci -vvv on the node that ran it", [
		perftest.name(r), perftest.fmt1(row.average_gbps), row.bytes, why,
	])
	f := finding.not_judged(run_finding(r, msg, array.concat([row.evidence], finding.evidence(r, ["device"]))), msg)
}

# run_finding is about the run's device when the snapshot has it, else about the node.
run_finding(r, msg, ev) := finding.device(d, msg, ev) if {
	d := perftest.device(r)
} else := finding.node(msg, ev)

unjudged(r) := "the output names no device (its header or a -d on the command line)" if {
	object.get(r, "device", "") == ""
} else := sprintf("its device %s is not in the snapshot", [r.device]) if {
	not perftest.device(r)
} else := sprintf("which port of %s it used is not known (save the command line with -i)", [r.device]) if {
	not perftest.port(r, perftest.device(r))
} else := sprintf("neither the rate of %s nor its PCIe link is in the snapshot", [r.device]) if {
	d := perftest.device(r)
	not reference(d, perftest.port(r, d))
}

# reference is the rate the run is judged against: the port's, else its PCIe link's.
reference(d, p) := l if {
	l := link_limit(d, p)
} else := l if {
	l := pcie_limit(d)
}

# link_limit is the port's rate (ibstat, sysfs), else its netdev's ethtool speed.
link_limit(d, p) := {"kind": "link", "gbps": p.rate_gbps, "text": sprintf("the %v Gb/s port", [p.rate_gbps]), "evidence": finding.evidence(p, ["rate_gbps"])} if {
	p.state == "Active"
	p.rate_gbps > 0
} else := {"kind": "link", "gbps": g, "text": sprintf("the %v Gb/s link of %s", [g, nd.name]), "evidence": finding.evidence(nd, ["speed_mbps"])} if {
	name := join.netdev_name(d, p)
	some nd in input.netdevs
	nd.name == name
	nd.speed_mbps > 0
	g := nd.speed_mbps / 1000
}

# pcie_limit is what the adapter's PCIe link leaves for data (lib/pcie usable_gbps).
pcie_limit(d) := {
	"kind": "pcie", "gbps": u, "fn": fn,
	"text": sprintf("what its PCIe link allows (%v GT/s x%d, about %s Gb/s usable)", [fn.lnksta.speed_gts, fn.lnksta.width, perftest.fmt1(u)]),
	"evidence": finding.evidence(fn, ["lnksta"]),
} if {
	a := join.pci(d)
	a != ""
	fns := [fn | some fn in input.pci; fn.address == a; pcie.usable_gbps(fn.lnksta)]
	count(fns) > 0
	fn := fns[0]
	u := pcie.usable_gbps(fn.lnksta)
}

both(r) := " (both directions together)" if r.bidirectional == true

else := ""

# path_note says whether the PCIe link is what limits the run.
path_note(d, ref, avg) := sprintf("; the card runs PCIe %v GT/s x%d (about %s Gb/s usable), which caps it%s%s", [
	l.fn.lnksta.speed_gts, l.fn.lnksta.width, perftest.fmt1(l.gbps), slot_hint(l.fn), below_pcie(l, avg),
]) if {
	ref.kind == "link"
	l := pcie_limit(d)
	l.gbps < share * ref.gbps
} else := sprintf("; its PCIe link (%v GT/s x%d, about %s Gb/s usable) does not limit it", [l.fn.lnksta.speed_gts, l.fn.lnksta.width, perftest.fmt1(l.gbps)]) if {
	ref.kind == "link"
	l := pcie_limit(d)
} else := ""

slot_hint(fn) := sprintf(": move it to an x%d slot", [fn.lnkcap.width]) if {
	fn.lnkcap.width > fn.lnksta.width
} else := sprintf(": move it to a %v GT/s slot", [fn.lnkcap.speed_gts]) if {
	fn.lnkcap.speed_gts > fn.lnksta.speed_gts
} else := ""

below_pcie(l, avg) := sprintf(", yet the test reached only %d%% of even that", [round((100 * avg) / l.gbps)]) if avg < share * l.gbps

else := ""

pcie_evidence(d, ref) := l.evidence if {
	ref.kind == "link"
	l := pcie_limit(d)
} else := []

# gather names what the snapshot lacks to tell the cause (empty when it has all of it).
gather(r, d, p) := sprintf("; to find the cause also gather: %s", [concat(", ", missing)]) if {
	missing := [c |
		some c in [
			lspci_missing(d),
			irqs_missing,
			cpufreq_missing(r),
			width_missing(p),
		]
		c != ""
	]
	count(missing) > 0
} else := ""

lspci_missing(d) := sprintf("lspci -vvv -s %s", [a]) if {
	not pcie_limit(d)
	a := join.pci(d)
	a != ""
} else := "lspci -vvv (the adapter's LnkCap/LnkSta)" if {
	not pcie_limit(d)
} else := ""

irqs_missing := "/proc/interrupts and /proc/irq/*/smp_affinity_list" if not has_irqs

else := ""

has_irqs if count(input.irqs) > 0

cpufreq_missing(r) := "cpupower frequency-info" if {
	object.get(input.host, "cpufreq_governors", null) == null
	count(object.get(r, "cpu_frequency_warnings", [])) == 0
} else := ""

width_missing(p) := sprintf("ibstat (width and speed of port %d)", [p.number]) if {
	object.get(p, "width_lanes", null) == null
	p.link_layer == "InfiniBand"
} else := ""
