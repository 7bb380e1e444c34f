package rdmadoctor.rules.ipoib_child_mtu_exceeds_parent_test

import data.rdmadoctor.rules.ipoib_child_mtu_exceeds_parent as rule

# fixtures/ip_link/ipoib-child-mtu-above-parent.txt (linux-rdma, 2021-05-07): ib1 2044,
# ib1.dddd@ib1 4092; ib0 and ib0.dddd@ib0 both 2044.
netdevs := [
	{"name": "ib0", "kind": "ipoib", "mtu": 2044, "evidence": {"mtu": {"line": 9}}},
	{"name": "ib1", "kind": "ipoib", "mtu": 2044, "evidence": {"mtu": {"line": 11}}},
	{"name": "ib0.dddd", "parent": "ib0", "kind": "ipoib", "mtu": 2044, "evidence": {"mtu": {"line": 13}}},
	{"name": "ib1.dddd", "parent": "ib1", "kind": "ipoib", "mtu": 4092, "evidence": {"mtu": {"line": 15}}},
]

test_fires_on_child_above_parent if {
	fs := rule.findings with input as {"netdevs": netdevs}
	count(fs) == 1
	some f in fs
	f.subject.netdev == "ib1.dddd"
	f.vars.mtu == 2044
	count(f.evidence) == 2
}

# After the fix (child lowered to the parent's 2044), and a child whose parent is not captured.
test_no_finding_when_equal_or_parent_unknown if {
	fixed := [netdevs[0], netdevs[1], netdevs[2], object.union(netdevs[3], {"mtu": 2044})]
	count(rule.findings) == 0 with input as {"netdevs": fixed}
	count(rule.findings) == 0 with input as {"netdevs": [netdevs[3]]}
}

# fixtures/ip_link/ipoib-pkey-detail.txt: mlx5_ib0.8001 was just created (4092 above its parent's
# 2044) but is DOWN; mlx5_ib0.8002 is UP at the parent's 2044.
test_no_finding_for_down_child_or_equal_mtu if {
	nds := [
		{"name": "mlx5_ib0.8001", "parent": "mlx5_ib0", "kind": "ipoib", "mtu": 4092, "admin_up": false},
		{"name": "mlx5_ib0.8002", "parent": "mlx5_ib0", "kind": "ipoib", "mtu": 2044, "admin_up": true},
		{"name": "mlx5_ib0", "kind": "ipoib", "mtu": 2044, "admin_up": true},
	]
	count(rule.findings) == 0 with input as {"netdevs": nds}
}
