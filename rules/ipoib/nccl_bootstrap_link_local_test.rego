package rdmadoctor.rules.nccl_bootstrap_link_local_test

import data.rdmadoctor.rules.nccl_bootstrap_link_local as rule

# fixtures/rdma_app_log/nccl-bootstrap-ib0-ipv6-link-local.txt (NVIDIA/nccl#1291).
node01 := {"host": "node01", "use": "bootstrap", "netdev": "ib0", "address": "fe80::a288:c203:d2:aaf2%ib0", "family": "ipv6", "link_local": true, "evidence": {"line": 8}}

node02 := {"host": "node02", "use": "bootstrap", "netdev": "bond0", "address": "X.X.X.X", "link_local": null, "evidence": {"line": 10}}

test_fires_high_with_other_node_on_bond0 if {
	fs := rule.findings with input as {"host": {"nccl_netdevs": [node01, node02]}}
	count(fs) == 1
	some f in fs
	f.confidence == "high"
	f.subject.netdev == "ib0"
	f.vars.ifname == "bond0"
	contains(f.message, "on node01, NCCL bootstraps over ib0 fe80::a288:c203:d2:aaf2%ib0")
	contains(f.message, "node02 uses bond0 X.X.X.X")
	count(f.evidence) == 2
}

test_fires_medium_alone if {
	fs := rule.findings with input as {"host": {"nccl_netdevs": [node01]}}
	some f in fs
	not f.confidence
	f.vars == {}
}

# fixtures/rdma_app_log/nccl-bootstrap-ipoib-ipv4.txt (NVIDIA/nccl#952) and rccl-oob-ib0-ipv4.txt
# (ROCm/rccl#419): bootstrap and OOB over IPoIB with IPv4 are fine.
test_no_finding_for_ipoib_ipv4 if {
	nds := [
		{"host": "", "use": "bootstrap", "netdev": "ibp12s0", "address": "10.149.0.32", "family": "ipv4", "link_local": false, "evidence": {"line": 9}},
		{"host": "node01", "use": "oob", "netdev": "ib0", "address": "11.5.5.50", "family": "ipv4", "link_local": false, "evidence": {"line": 7}},
	]
	count(rule.findings) == 0 with input as {"host": {"nccl_netdevs": nds}}
}

# A masked address (link_local null) is not judged.
test_no_finding_for_masked_address if {
	count(rule.findings) == 0 with input as {"host": {"nccl_netdevs": [node02]}}
}
