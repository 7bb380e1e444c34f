package rdmadoctor.rules.fleet_ipoib_drift_test

import data.rdmadoctor.rules.fleet_ipoib_drift as rule

# ib0 of corpus case 112 (`ip addr show ib0`: mtu 4092), in datagram mode.
ib0(mode, mtu) := {"name": "ib0", "mode": mode, "mtu": mtu, "evidence": {
	"mtu": {"source": "ip_addr", "path": "ip_addr_show_ib0", "line": 1, "text": sprintf("8: ib0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu %d qdisc mq state UP group default qlen 256", [mtu])},
	"mode": {"source": "sysfs_net", "path": "sys/class/net/ib0/mode", "line": 0, "text": mode},
}}

node(host, mode, mtu) := {"host": host, "ipoib": [ib0(mode, mtu)]}

test_fires_on_connected_mode if {
	fs := rule.findings with input as {"nodes": [node("node01", "datagram", 4092), node("node02", "connected", 65520), node("node03", "datagram", 4092)]}
	count(fs) == 1
	some f in fs
	f.nodes == ["node02"]
	f.subject == {"netdev": "ib0"}
	f.message == "node02 ib0 runs connected mode, MTU 65520 while 2 nodes' ib0 run datagram mode, MTU 4092"
	f.vars.mode == "datagram"
	f.vars.mtu == 4092
	count(f.evidence) == 2
}

test_fires_on_mtu_alone if {
	fs := rule.findings with input as {"nodes": [node("node01", "datagram", 4092), node("node02", "datagram", 2044), node("node03", "datagram", 4092)]}
	some f in fs
	f.message == "node02 ib0 runs datagram mode, MTU 2044 while 2 nodes' ib0 run datagram mode, MTU 4092"
	[e.text | some e in f.evidence] == ["8: ib0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 2044 qdisc mq state UP group default qlen 256"]
}

test_no_finding_when_all_match if {
	count(rule.findings) == 0 with input as {"nodes": [node("node01", "datagram", 4092), node("node02", "datagram", 4092)]}
}

test_no_finding_for_an_unknown_mode if {
	bare := {"host": "node02", "ipoib": [object.remove(ib0("datagram", 4092), ["mode"])]}
	count(rule.findings) == 0 with input as {"nodes": [node("node01", "datagram", 4092), bare, node("node03", "datagram", 4092)]}
}

test_no_finding_for_what_the_profile_sets if {
	count(rule.findings) == 0 with input as {
		"nodes": [node("node01", "datagram", 4092), node("node02", "datagram", 2044), node("node03", "datagram", 4092)],
		"profile": {"ipoib": {"mtu": 4092}},
	}
}

test_fires_on_an_mtu_tie_with_each_value if {
	fs := rule.findings with input as {"nodes": [
		node("node01", "datagram", 4092), node("node02", "datagram", 2044),
		node("node03", "datagram", 4092), node("node04", "datagram", 2044),
	]}
	count(fs) == 2
	some f in fs
	f.nodes == ["node02", "node04"]
	f.subject == {"netdev": "ib0"}
	f.confidence == "low"
	f.message == "ib0 runs MTU 2044 on 2 nodes, and no MTU of ib0 is on more nodes than every other: MTU 2044 on 2 nodes, MTU 4092 on 2 nodes"
	[e.host | some e in f.evidence] == ["node02"]
	f.vars == {"want": "MTU 4092", "mode": "datagram"}
	some g in fs
	g.nodes == ["node01", "node03"]
}

test_no_split_reported_with_a_majority if {
	fs := rule.findings with input as {"nodes": [node("node01", "datagram", 4092), node("node02", "datagram", 2044), node("node03", "datagram", 4092)]}
	every f in fs {
		not f.confidence
	}
}
