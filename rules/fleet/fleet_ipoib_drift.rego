# METADATA
# title: A node's IPoIB interface runs another mode or MTU than its peers
# description: >-
#   An IPoIB interface (by name, e.g. ib0) runs in another mode (datagram or connected) or with
#   another MTU than the interface of the same name on most nodes of the fleet. IPoIB peers with
#   different MTUs fragment or drop traffic between them (a connected-mode node at 65520 sending
#   to datagram nodes at 2044 or 4092), so NFS, MPI bootstrap and storage over IPoIB hang or
#   crawl on that node. Mode and MTU are each compared with the value most nodes have; when no
#   value of one is on more nodes than every other (an even split), there is no odd one out: each
#   value is reported with its nodes, with low confidence. A profile
#   that sets ipoib mode or mtu states the intent instead: each node's ipoib-mode-mtu-suboptimal
#   then judges it, and this comparison stays silent for what the profile sets.
# scope: package
# related_resources:
#   - ref: https://docs.kernel.org/infiniband/ipoib.html
#   - ref: https://docs.nvidia.com/networking/display/mlnxofedv587061lts/IP+over+InfiniBand+(IPoIB)
# custom:
#   id: fleet-ipoib-drift
#   area: fleet
#   severity: warning
#   confidence: medium
#   requires: [nodes_ipoib]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ip -d link show {{netdev}}
#       note: on {{nodes}} - mode and mtu; the peers run {{want}}
#     - command: echo {{mode}} > /sys/class/net/{{netdev}}/mode && ip link set {{netdev}} mtu {{mtu}}
#       note: on {{nodes}} - now; persist it in the interface's connection profile (NetworkManager infiniband.transport-mode and infiniband.mtu, or ifcfg CONNECTED_MODE and MTU)
package rdmadoctor.rules.fleet_ipoib_drift

import data.rdmadoctor.lib.fleet

# fields are the settings compared, unless the profile states them.
fields contains "mode" if not input.profile.ipoib.mode

fields contains "mtu" if not input.profile.ipoib.mtu

# settings are each IPoIB interface's known mode and MTU, by node and interface index. The
# aggregates are complete rules, computed once per evaluation.
settings := [{"i": i, "x": x, "name": ip.name, "k": k, "v": ip[k]} |
	some i, node in input.nodes
	some x, ip in node.ipoib
	some k in fields
	ip[k] != null
]

# hosts[[name, k]][v] are the nodes whose interface name has setting k at value v.
hosts := {nk: {v: {input.nodes[e.i].host | some e in settings; [e.name, e.k] == nk; e.v == v} |
	some v in {e.v | some e in settings; [e.name, e.k] == nk}
} |
	some nk in {[e.name, e.k] | some e in settings}
}

# wanted[[name, k]] is the value of setting k of interface name on more nodes than any other.
wanted := {nk: v | some nk, by in hosts; v := fleet.majority({v: count(hs) | some v, hs in by})}

say("mode", v) := sprintf("%s mode", [v])

say("mtu", v) := sprintf("MTU %d", [v])

shown(ip) := concat(", ", [say(k, ip[k]) | some k in ["mode", "mtu"]; ip[k] != null])

peers_say(name) := concat(", ", [say(k, wanted[[name, k]]) | some k in ["mode", "mtu"]; wanted[[name, k]]])

# odd are the node and interface indexes with a setting other than the majority's.
odd := {[e.i, e.x] | some e in settings; e.v != wanted[[e.name, e.k]]}

findings contains f if {
	some [i, x] in odd
	node := input.nodes[i]
	ip := node.ipoib[x]
	ks := [k | some k in ["mode", "mtu"]; k in fields; ip[k] != null; ip[k] != wanted[[ip.name, k]]]
	n := min([count(hosts[[ip.name, k]][wanted[[ip.name, k]]]) | some k in ks])
	f := {
		"nodes": [node.host],
		"subject": {"netdev": ip.name},
		"message": sprintf("%s %s runs %s while %d %s' %s run %s", [
			node.host, ip.name, shown(ip), n, fleet.nodes_word(n), ip.name, peers_say(ip.name),
		]),
		"evidence": fleet.evidence(node, ip, ks),
		"vars": {
			"want": peers_say(ip.name),
			"mode": value(ip, "mode"),
			"mtu": value(ip, "mtu"),
		},
	}
}

# value is the majority's setting k for ip's name, else ip's own.
value(ip, k) := v if {
	v := wanted[[ip.name, k]]
} else := object.get(ip, k, null)

# no value of a setting of an interface on more nodes than every other: each value with its
# nodes, none named the odd one.
findings contains f if {
	some nk, by in hosts
	count(by) > 1
	not wanted[nk]
	[name, k] := nk
	shown_by := {say(k, v): hs | some v, hs in by}
	some v, hs in by
	first := min(hs)
	some e in settings
	[e.name, e.k, e.v] == [name, k, v]
	node := input.nodes[e.i]
	node.host == first
	f := {
		"nodes": sort(hs),
		"subject": {"netdev": name},
		"message": sprintf("%s runs %s on %s, and no %s of %s is on more nodes than every other: %s", [
			name, say(k, v), fleet.on(hs), setting_word[k], name, fleet.split(shown_by),
		]),
		"evidence": fleet.evidence(node, node.ipoib[e.x], [k]),
		"confidence": "low",
		"vars": object.union({"want": fleet.others(shown_by, say(k, v))}, {j: wanted[[name, j]] | some j in fields; j != k; wanted[[name, j]]}),
	}
}

setting_word := {"mode": "mode", "mtu": "MTU"}
