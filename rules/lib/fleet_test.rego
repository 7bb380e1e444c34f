package rdmadoctor.lib.fleet_test

import data.rdmadoctor.lib.fleet

test_majority_is_the_most_held if {
	fleet.majority({"16.35.3006": 39, "16.35.2000": 1}) == "16.35.3006"
}

test_no_majority_on_a_tie if {
	not fleet.majority({"16.35.3006": 1, "16.35.2000": 1})
}

test_evidence_carries_the_host if {
	dev := {"evidence": {"firmware": {"source": "ibstat", "path": "ibstat", "line": 5, "text": "\tFirmware version: 16.35.2000"}}}
	fleet.evidence({"host": "node017"}, dev, ["firmware", "psid"]) == [{
		"host": "node017", "source": "ibstat", "path": "ibstat", "line": 5,
		"text": "\tFirmware version: 16.35.2000",
	}]
}

test_label_and_subject if {
	fleet.label({"name": "mlx5_0", "pci_address": "0000:81:00.0"}) == "mlx5_0"
	fleet.label({"pci_address": "0000:81:00.0"}) == "0000:81:00.0"
	fleet.subject({"pci_address": "0000:81:00.0"}) == {"pci": "0000:81:00.0"}
	fleet.port_subject({"name": "mlx5_0"}, 1) == {"device": "mlx5_0", "port": 1}
}

test_split_most_held_first if {
	by := {"5.8-1.0.1": {"node03", "node04"}, "4.9-5.1.0": {"node01", "node02"}, "5.4-3.0.0": {"node07"}}
	fleet.split(by) == "4.9-5.1.0 on 2 nodes, 5.8-1.0.1 on 2 nodes, 5.4-3.0.0 on node07"
	fleet.others(by, "5.8-1.0.1") == "4.9-5.1.0 or 5.4-3.0.0"
}

test_on_names_one_node if {
	fleet.on({"node07"}) == "node07"
	fleet.on({"node01", "node02"}) == "2 nodes"
	fleet.whose({"node07"}) == "node07's"
	fleet.whose({"node01", "node02"}) == "2 nodes'"
}
