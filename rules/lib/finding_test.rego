package rdmadoctor.lib.finding_test

import data.rdmadoctor.lib.finding

ev := {"source": "ibstat", "path": "ibstat", "line": 9, "text": "State: Down"}

test_port_subject_carries_joined_pci_and_netdev if {
	dev := {"name": "mlx5_0", "pci_address": "0000:81:00.0", "ports": []}
	p := {"number": 1, "netdev": "ib0", "evidence": {"state": ev}}
	f := finding.port(dev, p, "m", finding.evidence(p, ["state", "physical_state"]))
	f == {"subject": {"device": "mlx5_0", "port": 1, "pci": "0000:81:00.0", "netdev": "ib0"}, "message": "m", "evidence": [ev]}
}

test_subject_leaves_out_unknown_fields if {
	finding.device({"name": "mlx5_0"}, "m", []).subject == {"device": "mlx5_0"} with input as {}
	finding.node("m", []).subject == {}
}
