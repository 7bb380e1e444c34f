package rdmadoctor.rules.sriov_vf_guid_not_assigned_test

import data.rdmadoctor.rules.sriov_vf_guid_not_assigned as rule

# corpus 015 ibstat_excerpt: ConnectX VF (MT4126), RoCE, Node GUID 0.
roce_vf := {"name": "mlx5_8", "ca_type": "MT4126", "node_guid": "0x0000000000000000", "ports": [{
	"number": 1, "state": "Down", "physical_state": "Disabled", "lid": 0, "sm_lid": 0, "link_layer": "Ethernet",
	"port_guid": "0x983854fffeb4df3e",
}]}

# rule-catalog 4.26 (Mellanox/network-operator#1646): an IB VF (vendor_part_id 4126) in a pod,
# node_guid 0000:0000:0000:0000, PORT_INIT although sm_lid 4.
ib_vf_init := {"name": "mlx5_0", "ca_type": "MT4126", "node_guid": "0x0000000000000000", "ports": [{
	"number": 1, "state": "Initializing", "physical_state": "LinkUp", "lid": 65535, "sm_lid": 4, "link_layer": "InfiniBand",
}]}

# corpus 016 ibv_devices_server: names and node GUIDs only.
ibv_devices := [
	{"name": "mlx5_2", "node_guid": "0x0000000000000000", "ports": []},
	{"name": "mlx5_0", "node_guid": "0x506b4b0300285028", "ports": []},
]

# corpus 014 ip_link_show_vf_excerpt: a VF line without its PF header.
vf_line := {"index": 5, "link_address": "00:00:0c:79:fe:80:00:00:00:00:00:00:a0:88:c2:03:00:d6:49:a2", "node_guid": "00:00:00:00:00:00:00:00", "port_guid": "00:00:00:00:00:00:00:00", "link_state": "enable", "evidence": {"line": 1}}

test_fires_roce_vf_zero_node_guid if {
	fs := rule.findings with input as {"devices": [roce_vf], "netdevs": []}
	count(fs) == 1
	some f in fs
	not f.confidence
	f.subject.device == "mlx5_8"
	contains(f.message, "rdma_cm")
}

test_fires_ib_vf_init_with_sm if {
	some f in rule.findings with input as {"devices": [ib_vf_init], "netdevs": []}
	contains(f.message, "stays Initializing although SM lid 4 answers")
}

test_fires_ibv_devices_zero_guid_medium if {
	fs := rule.findings with input as {"devices": ibv_devices, "netdevs": []}
	count(fs) == 1
	some f in fs
	f.subject.device == "mlx5_2"
	f.confidence == "medium"
}

test_fires_ip_link_vf_line if {
	fs := rule.findings with input as {"devices": [], "netdevs": [{"name": "unknown", "vfs": [vf_line]}]}
	count(fs) == 1
	some f in fs
	f.subject == {}
	f.vars.vf == 5
	contains(f.message, "NODE_GUID and PORT_GUID 00:00:00:00:00:00:00:00")
}

test_fires_ip_link_names_pf if {
	some f in rule.findings with input as {"devices": [], "netdevs": [{"name": "ib0", "vfs": [vf_line]}]}
	f.subject.netdev == "ib0"
	f.vars.pf_netdev == "ib0"
}

# corpus 112 ibstat__mlx5_6_vf_after_guid_set / 011: a VF with a GUID is fine.
test_no_finding_for_vf_with_guid if {
	v := object.union(ib_vf_init, {"node_guid": "0x9aecdde4e1e642ba"})
	count(rule.findings) == 0 with input as {"devices": [v], "netdevs": []}
}

# A PF (ConnectX-6) with blank GUIDs is a firmware matter, not an unassigned VF.
test_no_finding_for_pf_with_zero_guid if {
	p := object.union(ib_vf_init, {"ca_type": "MT4123"})
	count(rule.findings) == 0 with input as {"devices": [p], "netdevs": []}
}

# A VF line with GUIDs set (random GUIDs the operator assigned), and an Ethernet VF line.
test_no_finding_for_vf_lines_with_guids if {
	set := object.union(vf_line, {"node_guid": "14:bc:13:5e:c9:6d:bf:32", "port_guid": "14:bc:13:5e:c9:6d:bf:32"})
	eth := {"index": 0, "link_address": "76:ed:fd:cf:eb:c9", "link_state": "auto", "evidence": {}}
	count(rule.findings) == 0 with input as {"devices": [], "netdevs": [{"name": "ib0", "vfs": [set, eth]}]}
}
