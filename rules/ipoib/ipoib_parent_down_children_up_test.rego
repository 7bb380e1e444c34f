package rdmadoctor.rules.ipoib_parent_down_children_up_test

import data.rdmadoctor.rules.ipoib_parent_down_children_up as rule

# fixtures/ip_addr/ipoib-parent-down-children-up.txt (linux-rdma, 2021-03-19): ib0 DOWN,
# ib0.beef@ib0 and ib0.dddd@ib0 UP with M-DOWN.
ib0 := {"name": "ib0", "kind": "ipoib", "admin_up": false, "flags": ["BROADCAST", "MULTICAST"], "evidence": {"admin_up": {"line": 13}}}

beef := {
	"name": "ib0.beef", "parent": "ib0", "kind": "ipoib", "admin_up": true,
	"flags": ["BROADCAST", "MULTICAST", "UP", "LOWER_UP", "M-DOWN"], "evidence": {"admin_up": {"line": 17}, "flags": {"line": 17}},
}

dddd := object.union(beef, {"name": "ib0.dddd", "evidence": {"admin_up": {"line": 23}, "flags": {"line": 23}}})

test_fires_per_child_with_parent_down if {
	fs := rule.findings with input as {"netdevs": [ib0, beef, dddd]}
	count(fs) == 2
	some f in fs
	f.subject.netdev == "ib0.beef"
	f.vars.parent == "ib0"
	not f.confidence
	count(f.evidence) == 2
}

test_fires_medium_from_m_down_alone if {
	fs := rule.findings with input as {"netdevs": [beef]}
	count(fs) == 1
	some f in fs
	f.confidence == "medium"
}

# fixtures/ip_link/ipoib-pkey-detail.txt: parent mlx5_ib0 UP, child 8002 UP, child 8001 DOWN.
test_no_finding_with_parent_up if {
	nds := [
		{"name": "mlx5_ib0", "kind": "ipoib", "admin_up": true, "flags": ["BROADCAST", "MULTICAST", "UP", "LOWER_UP"]},
		{"name": "mlx5_ib0.8002", "parent": "mlx5_ib0", "kind": "ipoib", "admin_up": true, "flags": ["BROADCAST", "MULTICAST", "UP", "LOWER_UP"]},
		{"name": "mlx5_ib0.8001", "parent": "mlx5_ib0", "kind": "ipoib", "admin_up": false, "flags": ["BROADCAST", "MULTICAST"]},
	]
	count(rule.findings) == 0 with input as {"netdevs": nds}
}

# Both down: nothing is in use (ipoib interfaces down on a pure-IB fabric are normal, corpus 033).
test_no_finding_when_child_down_too if {
	c := object.union(beef, {"admin_up": false, "flags": ["BROADCAST", "MULTICAST", "M-DOWN"]})
	count(rule.findings) == 0 with input as {"netdevs": [ib0, c]}
}
