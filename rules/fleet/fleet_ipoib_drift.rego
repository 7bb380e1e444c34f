# METADATA
# title: A node's IPoIB interface runs another mode or MTU than its peers
# description: >-
#   An IPoIB interface (by name, e.g. ib0) runs in another mode (datagram or connected) or with
#   another MTU than the interface of the same name on most nodes of the fleet. IPoIB peers with
#   different MTUs fragment or drop traffic between them (a connected-mode node at 65520 sending
#   to datagram nodes at 2044 or 4092), so NFS, MPI bootstrap and storage over IPoIB hang or
#   crawl on that node. Mode and MTU are each compared with the value most nodes have. A profile
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

# hosts(name, k, v) are the nodes whose IPoIB interface name has setting k at value v.
hosts(name, k, v) := {node.host |
	some node in input.nodes
	some ip in node.ipoib
	ip.name == name
	ip[k] == v
}

# values(name, k) counts the nodes per value of setting k of interface name.
values(name, k) := {v: count(hosts(name, k, v)) |
	some node in input.nodes
	some ip in node.ipoib
	ip.name == name
	v := ip[k]
	v != null
}

# wanted(name, k) is the majority value of setting k of interface name.
wanted(name, k) := fleet.majority(values(name, k))

# odd(node, ip) are the settings of ip that differ from the majority.
odd(ip) := [k |
	some k in ["mode", "mtu"]
	k in fields
	ip[k] != null
	want := wanted(ip.name, k)
	ip[k] != want
]

say("mode", v) := sprintf("%s mode", [v])

say("mtu", v) := sprintf("MTU %d", [v])

settings(ip) := concat(", ", [say(k, ip[k]) | some k in ["mode", "mtu"]; ip[k] != null])

peers_say(name) := concat(", ", [say(k, wanted(name, k)) | some k in ["mode", "mtu"]; wanted(name, k)])

findings contains f if {
	some node in input.nodes
	some ip in node.ipoib
	ks := odd(ip)
	count(ks) > 0
	n := min([count(hosts(ip.name, k, wanted(ip.name, k))) | some k in ks])
	f := {
		"nodes": [node.host],
		"subject": {"netdev": ip.name},
		"message": sprintf("%s %s runs %s while %d %s' %s run %s", [
			node.host, ip.name, settings(ip), n, fleet.nodes_word(n), ip.name, peers_say(ip.name),
		]),
		"evidence": fleet.evidence(node, ip, ks),
		"vars": {
			"want": peers_say(ip.name),
			"mode": object.get(wanted_all(ip.name), "mode", object.get(ip, "mode", null)),
			"mtu": object.get(wanted_all(ip.name), "mtu", object.get(ip, "mtu", null)),
		},
	}
}

wanted_all(name) := {k: v | some k in ["mode", "mtu"]; v := wanted(name, k)}
