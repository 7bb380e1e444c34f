package rdmadoctor.rules.fleet_link_type_drift_test

import data.rdmadoctor.rules.fleet_link_type_drift as rule

# The ConnectX-3 Pro of corpus case 034 (mlxconfig query: LINK_TYPE_P1 ETH(2)).
dev(v) := {"pci_address": "0000:04:00.0", "device_type": "ConnectX3Pro", "link_types": {"LINK_TYPE_P1": v}, "evidence": {"link_types.LINK_TYPE_P1": {
	"source": "mstconfig_query", "path": "mlxconfig_-d_.dev.mst.mt4103_pci_cr0_query", "line": 11,
	"text": sprintf("         LINK_TYPE_P1                                %s          ", [v]),
}}}

node(host, v) := {"host": host, "devices": [dev(v)]}

test_fires_on_the_odd_link_type if {
	fs := rule.findings with input as {"nodes": [node("node01", "ETH(2)"), node("node02", "IB(1)"), node("node03", "ETH(2)")]}
	count(fs) == 1
	some f in fs
	f.nodes == ["node02"]
	f.subject == {"pci": "0000:04:00.0"}
	f.message == "node02 0000:04:00.0 has LINK_TYPE_P1 IB(1) while 2 nodes with device type ConnectX3Pro have ETH(2)"
	f.vars.link_type == "ETH"
	f.evidence[0].line == 11
}

test_no_finding_when_all_match if {
	count(rule.findings) == 0 with input as {"nodes": [node("node01", "ETH(2)"), node("node02", "ETH(2)")]}
}

test_no_finding_across_models if {
	other := {"host": "node02", "devices": [object.union(dev("IB(1)"), {"device_type": "ConnectX6"})]}
	count(rule.findings) == 0 with input as {"nodes": [node("node01", "ETH(2)"), other, node("node03", "ETH(2)")]}
}

test_fires_on_a_tie_with_each_value if {
	fs := rule.findings with input as {"nodes": [node("node01", "ETH(2)"), node("node02", "IB(1)")]}
	count(fs) == 2
	some f in fs
	f.nodes == ["node02"]
	f.subject == {"pci": "0000:04:00.0"}
	f.confidence == "low"
	f.message == "adapters with device type ConnectX3Pro have LINK_TYPE_P1 IB(1) on node02, and no value is on more nodes than every other: ETH(2) on node01, IB(1) on node02"
	[e.host | some e in f.evidence] == ["node02"]
	f.vars == {"param": "LINK_TYPE_P1", "value": "ETH(2)"}
	some g in fs
	g.nodes == ["node01"]
}

test_tie_names_no_one_adapter_for_several if {
	moved := {"host": "node03", "devices": [object.union(dev("IB(1)"), {"pci_address": "0000:81:00.0"})]}
	fs := rule.findings with input as {"nodes": [node("node01", "ETH(2)"), node("node02", "IB(1)"), moved, node("node04", "ETH(2)")]}
	some f in fs
	f.nodes == ["node02", "node03"]
	f.subject == {}
}

test_no_split_reported_with_a_majority if {
	fs := rule.findings with input as {"nodes": [node("node01", "ETH(2)"), node("node02", "IB(1)"), node("node03", "ETH(2)")]}
	every f in fs {
		not f.confidence
	}
}
