# METADATA
# title: A node boots another kernel than its peers
# description: >-
#   The node runs another kernel release than most nodes of the fleet. The in-box RDMA drivers
#   come with the kernel, and MLNX_OFED/DOCA-OFED modules are built per kernel: a node left on
#   another kernel (a failed update, a fallback boot entry) runs other driver code, or loses the
#   OFED modules altogether, and behaves unlike its peers. When no release runs on more nodes
#   than every other (an even split), there is no odd one out: each release is reported with its
#   nodes, with low confidence, and the operator picks the one to keep.
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/networking/display/mlnxofedv24070610/installing+mlnx_ofed
#   - ref: https://man7.org/linux/man-pages/man1/uname.1.html
# custom:
#   id: fleet-kernel-drift
#   area: fleet
#   severity: warning
#   confidence: medium
#   requires: [nodes_kernel]
#   explains: []
#   needs_reboot: true
#   fix:
#     - command: uname -r
#       note: on {{nodes}} - the peers run {{kernel}}
#     - command: ofed_info -s
#       note: on {{nodes}} - whether the OFED stack is built for the running kernel; boot {{kernel}} (or rebuild the OFED modules) to match the peers
package rdmadoctor.rules.fleet_kernel_drift

import data.rdmadoctor.lib.fleet

# hosts[k] are the nodes running kernel k; computed once per evaluation.
hosts := {k: {node.host | some node in input.nodes; node.kernel == k} | some k in {node.kernel | some node in input.nodes}}

# by_host are the node indexes by host label.
by_host := {node.host: i | some i, node in input.nodes}

findings contains f if {
	want := fleet.majority({k: count(hs) | some k, hs in hosts})
	peer := input.nodes[by_host[min(hosts[want])]]
	n := count(hosts[want])
	some node in input.nodes
	node.kernel
	node.kernel != want
	f := {
		"nodes": [node.host],
		"subject": {},
		"message": sprintf("%s runs kernel %s while %d %s %s %s", [
			node.host, node.kernel, n, fleet.nodes_word(n), fleet.run_word(n), want,
		]),
		"evidence": array.concat(fleet.evidence(node, node, ["kernel"]), fleet.evidence(peer, peer, ["kernel"])),
		"vars": {"kernel": want},
	}
}

# no release on more nodes than every other: each release with its nodes, none named the odd one.
findings contains f if {
	count(hosts) > 1
	not fleet.majority({k: count(hs) | some k, hs in hosts})
	some k, hs in hosts
	peer := input.nodes[by_host[min(hs)]]
	f := {
		"nodes": sort(hs),
		"subject": {},
		"message": sprintf("kernel %s runs on %s, and no release is on more nodes than every other: %s", [
			k, fleet.on(hs), fleet.split(hosts),
		]),
		"evidence": fleet.evidence(peer, peer, ["kernel"]),
		"confidence": "low",
		"vars": {"kernel": fleet.others(hosts, k)},
	}
}
