package rdmadoctor.rules.ib_link_flapping_test

import data.rdmadoctor.rules.ib_link_flapping as rule

active := {"number": 1, "state": "Active", "physical_state": "LinkUp", "link_layer": "InfiniBand"}

test_fires_on_link_downed_delta if {
	p := object.union(active, {"counter_deltas": {"link_downed": 1}})
	count(rule.findings) == 1 with input as {"sample": {"interval_seconds": 60}, "devices": [{"name": "mlx5_0", "ports": [p]}]}
}

test_fires_on_saturated_absolute if {
	# corpus 005: link_downed 255 (8-bit counter stuck at its maximum)
	p := object.union(active, {"counters": {"link_downed": 255}})
	fs := rule.findings with input as {"devices": [{"name": "mlx5_0", "ports": [p]}]}
	some f in fs
	f.confidence == "low"
}

test_fires_when_caught_retraining if {
	p := {"number": 1, "state": "Down", "physical_state": "LinkErrorRecovery", "link_layer": "InfiniBand"}
	count(rule.findings) == 1 with input as {"devices": [{"name": "mlx5_0", "ports": [p]}]}
}

test_no_finding_for_bring_up_noise if {
	# link_downed 1 after boot is link bring-up, not flapping
	p := object.union(active, {"counters": {"link_downed": 1, "link_error_recovery": 0}})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [p]}]}
}

kev(n, kind, nd, path) := {"kind": kind, "driver": "mlx5_core", "pci_address": "0000:01:00.1", "netdev": nd, "evidence": {"source": "dmesg", "path": path, "line": n}}

# fixtures/dmesg/mlx5-eth1-link-up-repeated-journal.txt (bigstack-oss/cubecos#733)
cubecos := [kev(1, "link_up", "eth1", "j"), kev(3, "link_up", "eth1", "j"), kev(5, "link_up", "eth1", "j"), kev(7, "link_up", "eth1", "j")]

test_fires_on_repeated_link_up_in_kernel_log if {
	fs := rule.findings with input as {"host": {"kernel_events": cubecos}}
	count(fs) == 1
	some f in fs
	f.subject == {"netdev": "eth1", "pci": "0000:01:00.1"}
	contains(f.message, "eth1 came up 4 times")
	count(f.evidence) == 4
}

test_fires_on_the_joined_port if {
	nd := {"name": "eth1", "rdma_device": "mlx5_1", "rdma_port": 1}
	devs := [{"name": "mlx5_1", "ports": [{"number": 1, "link_layer": "Ethernet"}]}]
	fs := rule.findings with input as {"host": {"kernel_events": cubecos}, "netdevs": [nd], "devices": devs}
	some f in fs
	f.subject.device == "mlx5_1"
	f.subject.port == 1
}

test_no_finding_for_one_down_up_after_bring_up if {
	# corpus 105 (fixtures/dmesg/mlx4-en-ports.txt): eth1 up, down, up
	evs := [kev(16, "link_up", "eth1", "d"), kev(18, "link_down", "eth1", "d"), kev(19, "link_up", "eth1", "d")]
	count(rule.findings) == 0 with input as {"host": {"kernel_events": evs}}
}

test_no_finding_for_module_plug_and_one_link_up_per_port if {
	# fixtures/dmesg/mlx5-module-plugged-link-up.txt
	evs := [kev(3, "link_up", "enp1s0f0", "d"), kev(5, "link_up", "enp1s0f1", "d")]
	count(rule.findings) == 0 with input as {"host": {"kernel_events": evs}}
}

test_no_finding_for_one_log_read_twice if {
	# a sosreport's dmesg and /var/log/messages hold the same two down/up cycles
	two := [kev(1, "link_down", "ib0", "dmesg"), kev(2, "link_up", "ib0", "dmesg"), kev(3, "link_down", "ib0", "dmesg"), kev(4, "link_up", "ib0", "dmesg")]
	again := [object.union(e, {"evidence": {"path": "var/log/messages", "line": e.evidence.line}}) | some e in two]
	count(rule.findings) == 0 with input as {"host": {"kernel_events": array.concat(two, again)}}
}
