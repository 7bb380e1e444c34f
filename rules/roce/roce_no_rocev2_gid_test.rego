package rdmadoctor.rules.roce_no_rocev2_gid_test

import data.rdmadoctor.rules.roce_no_rocev2_gid as rule

ll := "fe80:0000:0000:0000:9a03:9bff:fe77:e152"

v4 := "0000:0000:0000:0000:0000:ffff:0a0c:0015"

port(gids) := {"number": 1, "link_layer": "Ethernet", "state": "Active", "netdev": "enp1s0f0", "gids": gids}

nd(extra) := object.union({"name": "enp1s0f0", "admin_up": true}, extra)

test_fires_link_local_only if {
	gids := [
		{"index": 0, "gid": ll, "type": "RoCE v1", "netdev": "enp1s0f0"},
		{"index": 1, "gid": ll, "type": "RoCE v2", "netdev": "enp1s0f0"},
	]
	fs := rule.findings with input as {"devices": [{"name": "rocep1s0f0", "ports": [port(gids)]}], "netdevs": [nd({"ipv6": [{"address": "fe80::1/64", "scope": "link"}]})]}
	count(fs) == 1
	some f in fs
	f.severity == "warning"
	f.subject.netdev == "enp1s0f0"
}

test_fires_address_without_v2_gid if {
	# only RoCE v1 GIDs although the netdev has an IPv4 address: RoCE v2 is off
	gids := [
		{"index": 0, "gid": ll, "type": "RoCE v1", "netdev": "enp1s0f0"},
		{"index": 2, "gid": v4, "type": "RoCE v1", "ipv4": "10.12.0.21", "netdev": "enp1s0f0"},
	]
	fs := rule.findings with input as {"devices": [{"name": "mlx5_0", "ports": [port(gids)]}], "netdevs": [nd({"ipv4": ["10.12.0.21/24"]})]}
	count(fs) == 1
	some f in fs
	not f.severity
	contains(f.message, "10.12.0.21/24")
}

test_no_finding_with_ipv4_v2_gid if {
	gids := [
		{"index": 1, "gid": ll, "type": "RoCE v2", "netdev": "enp1s0f0"},
		{"index": 3, "gid": v4, "type": "RoCE v2", "ipv4": "10.12.0.21", "netdev": "enp1s0f0"},
	]
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [port(gids)]}], "netdevs": [nd({"ipv4": ["10.12.0.21/24"]})]}
}

test_no_finding_on_infiniband if {
	p := object.union(port([{"index": 0, "gid": ll, "type": "IB"}]), {"link_layer": "InfiniBand"})
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [p]}], "netdevs": []}
}

test_no_finding_without_gid_types if {
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_0", "ports": [port([{"index": 0, "gid": ll}])]}], "netdevs": [nd({})]}
}

test_no_finding_on_truncated_table if {
	g := {"index": 4, "gid": ll, "type": "RoCE v1", "netdev": "net3", "evidence": {"path": "show_gids_TRUNCATED", "line": 12}}
	count(rule.findings) == 0 with input as {"devices": [{"name": "mlx5_2", "ports": [port([g])]}], "netdevs": []}
}

test_fires_with_two_global_ipv6_addresses if {
	# SLAAC plus a static address: two global IPv6 addresses, no RoCE v2 GID for either
	gids := [{"index": 0, "gid": ll, "type": "RoCE v1", "netdev": "enp1s0f0"}]
	addrs := [{"address": "2001:db8::1/64", "scope": "global"}, {"address": "2001:db8::5054:ff:fe12:3456/64", "scope": "global"}]
	fs := rule.findings with input as {"devices": [{"name": "rocep1s0f0", "ports": [port(gids)]}], "netdevs": [nd({"ipv6": addrs})]}
	count(fs) == 1
	some f in fs
	contains(f.message, "2001:db8::1/64")
}

# corpus 032: a pod with only a veth; show_gids lists nothing, ibv_devices lists mlx5_0.
test_fires_empty_gid_listing if {
	fs := rule.findings with input as {
		"devices": [{"name": "mlx5_0", "ports": null, "evidence": {"name": {"source": "ibv_devices", "line": 3, "text": "    mlx5_0          \t98039b03003b0346"}}}],
		"netdevs": [{"name": "eth0", "driver": "veth"}],
		"gid_listings": [{"found": 0, "evidence": {"source": "show_gids", "line": 3, "text": "n_gids_found=0"}}],
	}
	count(fs) == 1
	some f in fs
	f.confidence == "medium"
	f.subject.device == "mlx5_0"
	contains(f.message, "veth, not backed by an RDMA device: eth0")
	count(f.evidence) == 2
}

test_no_empty_listing_finding_for_infiniband if {
	fs := rule.findings with input as {
		"devices": [{"name": "mlx5_0", "ports": [{"number": 1, "link_layer": "InfiniBand"}]}],
		"gid_listings": [{"found": 0, "evidence": {"text": "n_gids_found=0"}}],
	}
	count(fs) == 0
}

test_no_empty_listing_finding_when_gids_found if {
	gids := [{"index": 3, "gid": v4, "type": "RoCE v2", "ipv4": "10.12.0.21", "netdev": "enp1s0f0"}]
	fs := rule.findings with input as {
		"devices": [{"name": "mlx5_0", "ports": [port(gids)]}],
		"netdevs": [nd({"ipv4": ["10.12.0.21/24"]})],
		"gid_listings": [{"found": 1, "evidence": {"text": "n_gids_found=1"}}],
	}
	count(fs) == 0
}

# The link-local-only finding needs the whole table: a later GID read from a truncated capture
# leaves it out, whatever the first GIDs' capture.
test_no_link_local_finding_when_a_later_gid_is_from_a_truncated_capture if {
	gids := [
		{"index": 0, "gid": ll, "type": "RoCE v1", "netdev": "enp1s0f0", "evidence": {"path": "show_gids", "line": 2}},
		{"index": 1, "gid": ll, "type": "RoCE v2", "netdev": "enp1s0f0", "evidence": {"path": "show_gids_TRUNCATED", "line": 3}},
	]
	inp := {"devices": [{"name": "rocep1s0f0", "ports": [port(gids)]}], "netdevs": [nd({})]}
	count(rule.findings) == 0 with input as inp
	count(rule.findings) == 1 with input as json.patch(inp, [{"op": "replace", "path": "/devices/0/ports/0/gids/1/evidence/path", "value": "show_gids"}])
}
