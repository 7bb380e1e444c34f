# METADATA
# title: A node's locked-memory limit differs from its peers'
# description: >-
#   The locked-memory limit (RLIMIT_MEMLOCK, ulimit -l) captured on this node differs from the
#   one most nodes of the fleet have. RDMA registers memory by locking it: a node with a lower
#   limit fails where its peers work (ibv_reg_mr, ibv_create_cq: Cannot allocate memory; UCX and
#   Open MPI fall back or abort), typically after a limits.conf or a job scheduler's service
#   file was changed on some nodes only. A lower limit than the peers' is a warning, a higher one
#   a note. When no limit is on more nodes than every other (an even split), there is no odd one
#   out: each limit is reported with its nodes, with low confidence, as a warning for the nodes
#   below the highest limit held and a note for those at it. The limit is that of the captured context (a shell, a job): compare captures taken the
#   same way.
# scope: package
# related_resources:
#   - ref: https://man7.org/linux/man-pages/man5/limits.conf.5.html
#   - ref: https://www.open-mpi.org/faq/?category=openfabrics
# custom:
#   id: fleet-memlock-drift
#   area: fleet
#   severity: warning
#   confidence: medium
#   requires: [nodes_memlock]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ulimit -l
#       note: on {{nodes}}, in the context the jobs run in (the scheduler daemon's service, a job) - the peers have {{limit}}
#     - command: grep -r memlock /etc/security/limits.conf /etc/security/limits.d/
#       note: on {{nodes}} - set the peers' limit ("* - memlock unlimited"), and LimitMEMLOCK=infinity in the scheduler daemon's unit (slurmd, sge_execd), then restart it
package rdmadoctor.rules.fleet_memlock_drift

import data.rdmadoctor.lib.fleet

# limit is the comparable value: "unlimited" or the KiB.
limit(m) := "unlimited" if m.unlimited

else := sprintf("%d KiB", [m.soft_kib]) if m.soft_kib != null

kib(m) := 1e30 if m.unlimited

else := m.soft_kib

# hosts[l] are the nodes whose limit is l; computed once per evaluation.
hosts := {l: {node.host | some node in input.nodes; node.memlock != null; limit(node.memlock) == l} |
	some l in {limit(node.memlock) | some node in input.nodes; node.memlock != null}
}

by_host := {node.host: i | some i, node in input.nodes}

findings contains f if {
	want := fleet.majority({l: count(hs) | some l, hs in hosts})
	peer := input.nodes[by_host[min(hosts[want])]]
	n := count(hosts[want])
	some node in input.nodes
	node.memlock != null
	have := limit(node.memlock)
	have != want
	lower := kib(node.memlock) < kib(peer.memlock)
	f := {
		"nodes": [node.host],
		"subject": {},
		"message": sprintf("%s allows %s locked memory while %d %s allow %s", [
			node.host, have, n, fleet.nodes_word(n), want,
		]),
		"evidence": array.concat(fleet.line(node, node.memlock.evidence), fleet.line(peer, peer.memlock.evidence)),
		"severity": severity(lower),
		"vars": {"limit": want},
	}
}

severity(true) := "warning"

severity(false) := "info"

# no limit on more nodes than every other: each limit with its nodes, none named the odd one; a
# warning for the nodes below the highest limit held, a note for those at it.
findings contains f if {
	count(hosts) > 1
	not fleet.majority({l: count(hs) | some l, hs in hosts})
	top := max({kib(node.memlock) | some node in input.nodes; node.memlock != null})
	some l, hs in hosts
	peer := input.nodes[by_host[min(hs)]]
	f := {
		"nodes": sort(hs),
		"subject": {},
		"message": sprintf("the locked-memory limit is %s on %s, and no limit is on more nodes than every other: %s", [
			l, fleet.on(hs), fleet.split(hosts),
		]),
		"evidence": fleet.line(peer, peer.memlock.evidence),
		"severity": severity(kib(peer.memlock) < top),
		"confidence": "low",
		"vars": {"limit": fleet.others(hosts, l)},
	}
}
