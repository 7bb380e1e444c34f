package rdmadoctor.rules.perftest_bandwidth_below_path_limit_test

import data.rdmadoctor.rules.perftest_bandwidth_below_path_limit as rule

# ib_write_bw on rocep5s0 at 1 MiB, 55.86 Gb/s (morrismeyer/warpforge CONNECTX5.md)
run := {
	"program": "ib_write_bw", "kind": "bandwidth", "device": "rocep5s0", "port": 1, "bidirectional": null,
	"bandwidth": [{"bytes": 1048576, "iterations": 5000, "average_gbps": 55.86, "evidence": {"line": 2, "text": "1048576    5000             55.87              55.86               0.006660"}}],
	"evidence": {},
}

port := {"number": 1, "state": "Active", "rate_gbps": 100, "link_layer": "Ethernet", "evidence": {"rate_gbps": {"line": 9, "text": "Rate: 100"}}}

dev := {"name": "rocep5s0", "pci_address": "0000:05:00.0", "ports": [port]}

x8 := {"address": "0000:05:00.0", "lnkcap": {"speed_gts": 8, "width": 16}, "lnksta": {"speed_gts": 8, "width": 8}, "evidence": {"lnksta": {"line": 40, "text": "LnkSta: Speed 8GT/s (ok), Width x8 (downgraded)"}}}

x16 := object.union(x8, {"lnksta": {"speed_gts": 8, "width": 16}})

test_fires_pcie_x8_caps_a_100g_port if {
	fs := rule.findings with input as {"perftest": [run], "devices": [dev], "pci": [x8], "irqs": [{"number": 1}], "host": {"cpufreq_governors": {"performance": 8}}}
	count(fs) == 1
	some f in fs
	f.subject == {"device": "rocep5s0", "port": 1, "pci": "0000:05:00.0"}
	f.message == "ib_write_bw reached 55.9 Gb/s with 1048576-byte messages = 56% of the 100 Gb/s port (rocep5s0 port 1); the card runs PCIe 8 GT/s x8 (about 57.6 Gb/s usable), which caps it: move it to an x16 slot"
	count(f.evidence) == 3
}

test_fires_below_even_pcie_and_says_what_to_gather if {
	slow := object.union(run, {"bandwidth": [object.union(run.bandwidth[0], {"average_gbps": 30.2})]})
	fs := rule.findings with input as {"perftest": [slow], "devices": [dev], "pci": [x8], "host": {}}
	some f in fs
	contains(f.message, "= 30% of the 100 Gb/s port")
	contains(f.message, "yet the test reached only 52% of even that")
	endswith(f.message, "; to find the cause also gather: /proc/interrupts and /proc/irq/*/smp_affinity_list, cpupower frequency-info")
}

test_fires_judged_against_pcie_when_the_port_rate_is_unknown if {
	fs := rule.findings with input as {"perftest": [object.union(run, {"bandwidth": [object.union(run.bandwidth[0], {"average_gbps": 40})]})], "devices": [object.union(dev, {"ports": [{"number": 1}]})], "pci": [x8], "irqs": [{"number": 1}], "host": {"cpufreq_governors": {}}}
	some f in fs
	startswith(f.message, "ib_write_bw reached 40.0 Gb/s with 1048576-byte messages = 69% of what its PCIe link allows (8 GT/s x8, about 57.6 Gb/s usable)")
}

test_no_finding_at_line_rate if {
	# ib_send_bw -R at 11714.10 MB/sec = 98.3 Gb/s on a 100G port with a x16 link
	ok := object.union(run, {"program": "ib_send_bw", "bandwidth": [object.union(run.bandwidth[0], {"bytes": 65536, "average_gbps": 98.26})]})
	count(rule.findings) == 0 with input as {"perftest": [ok], "devices": [dev], "pci": [x16], "host": {}}
}

test_no_finding_for_small_messages if {
	# perftest#273: 8-byte messages measure message rate, 0.48 Gb/s says nothing of the path
	small := object.union(run, {"bandwidth": [{"bytes": 8, "iterations": 224958464, "average_gbps": 0.48, "evidence": {}}]})
	count(rule.findings) == 0 with input as {"perftest": [small], "devices": [dev], "pci": [x8], "host": {}}
}

test_no_judgement_without_the_device_says_so if {
	fs := rule.findings with input as {"perftest": [run], "devices": [], "pci": [], "host": {}}
	count(fs) == 1
	some f in fs
	contains(f.unknown, "with 1048576-byte messages, but its device rocep5s0 is not in the snapshot")
	f.subject == {}
}

test_no_rate_nor_pcie_link_is_not_judged if {
	# the device is there, but neither its port's rate nor its PCIe link: a skip with the reason
	fs := rule.findings with input as {"perftest": [run], "devices": [object.union(dev, {"ports": [{"number": 1}]})], "pci": [], "host": {}}
	count(fs) == 1
	some f in fs
	contains(f.unknown, "neither the rate of rocep5s0 nor its PCIe link is in the snapshot")
	f.subject.device == "rocep5s0"
}

test_no_port_guess_on_a_two_port_device if {
	two := object.union(dev, {"ports": [port, object.union(port, {"number": 2})]})
	fs := rule.findings with input as {"perftest": [object.union(run, {"port": null})], "devices": [two], "pci": [x8], "host": {}}
	some f in fs
	contains(f.unknown, "which port of rocep5s0 it used is not known")
}
