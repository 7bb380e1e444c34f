# METADATA
# title: A node's RDMA driver is another version than its peers'
# description: >-
#   A kernel module (mlx5_core, mlx5_ib, ib_ipoib, nvidia_peermem, ...) reports another version
#   on this node than on most nodes of the fleet (modinfo version:, or ethtool -i version:, the
#   MLNX_OFED release for an OFED driver, the kernel release for the in-box one). A node with
#   another driver stack, or the in-box driver where its peers run OFED, has other features,
#   defaults and bugs, and is the first suspect when it alone misbehaves. When no version of a
#   driver runs on more nodes than every other (an even split), there is no odd one out: each
#   version is reported with its nodes, with low confidence.
# scope: package
# related_resources:
#   - ref: https://man7.org/linux/man-pages/man8/modinfo.8.html
#   - ref: https://docs.nvidia.com/networking/display/mlnxofedv24070610/installing+mlnx_ofed
# custom:
#   id: fleet-driver-version-drift
#   area: fleet
#   severity: warning
#   confidence: medium
#   requires: [nodes_drivers]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: modinfo -F version {{driver}}
#       note: on {{nodes}} - the peers run {{version}}
#     - command: ofed_info -s
#       note: on {{nodes}} - the installed OFED release; install the peers' release (or the same kernel) and reload the driver
package rdmadoctor.rules.fleet_driver_version_drift

import data.rdmadoctor.lib.fleet

# entries are the driver versions, by node and driver index. The aggregates are complete rules,
# computed once per evaluation.
entries := [{"i": i, "x": x, "name": d.name, "v": d.version} |
	some i, node in input.nodes
	some x, d in node.drivers
]

# hosts[name][v] are the nodes whose driver name reports version v.
hosts := {name: {v: {input.nodes[e.i].host | some e in entries; e.name == name; e.v == v} |
	some v in {e.v | some e in entries; e.name == name}
} |
	some name in {e.name | some e in entries}
}

want := {name: v | some name, by in hosts; v := fleet.majority({v: count(hs) | some v, hs in by})}

# peer[name] is the driver entry of the first node (by host) at the majority version.
peer := {name: p |
	some name, w in want
	first := min(hosts[name][w])
	some p in entries
	p.name == name
	input.nodes[p.i].host == first
}

findings contains f if {
	some e in entries
	w := want[e.name]
	e.v != w
	node := input.nodes[e.i]
	p := peer[e.name]
	pnode := input.nodes[p.i]
	n := count(hosts[e.name][w])
	f := {
		"nodes": [node.host],
		"subject": {},
		"message": sprintf("%s runs %s %s while %d %s %s %s", [
			node.host, e.name, e.v, n, fleet.nodes_word(n), fleet.run_word(n), w,
		]),
		"evidence": array.concat(fleet.line(node, node.drivers[e.x].evidence), fleet.line(pnode, pnode.drivers[p.x].evidence)),
		"vars": {"driver": e.name, "version": w},
	}
}

# no version of a driver on more nodes than every other: each version with its nodes, none
# named the odd one.
findings contains f if {
	some name, by in hosts
	count(by) > 1
	not want[name]
	some v, hs in by
	first := min(hs)
	some p in entries
	p.name == name
	p.v == v
	input.nodes[p.i].host == first
	pnode := input.nodes[p.i]
	f := {
		"nodes": sort(hs),
		"subject": {},
		"message": sprintf("%s %s runs on %s, and no version of it is on more nodes than every other: %s", [
			name, v, fleet.on(hs), fleet.split(by),
		]),
		"evidence": fleet.line(pnode, pnode.drivers[p.x].evidence),
		"confidence": "low",
		"vars": {"driver": name, "version": fleet.others(by, v)},
	}
}
