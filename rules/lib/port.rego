# METADATA
# title: Port predicates
# description: >-
#   Link layer, state and "in use" tests shared by the port rules. A port is in use when its netdev
#   is admin-UP with an address, the profile expects it, or its data counters moved between two
#   samples (rule-catalog §2.4). A port that is not in use while another port of the node is Active
#   is most likely uncabled on purpose.
# scope: package
package rdmadoctor.lib.port

import data.rdmadoctor.lib.intent
import data.rdmadoctor.lib.join

ib(p) if p.link_layer == "InfiniBand"

eth(p) if p.link_layer == "Ethernet"

active(p) if p.state == "Active"

# link_down: no physical link (Polling: no signal from a peer; Disabled: disabled locally; Sleep).
link_down(p) if p.physical_state in {"Polling", "Disabled", "Sleep"}

in_use(dev, p) if intent.expected(dev, p)

in_use(dev, p) if {
	nd := join.netdev(dev, p)
	nd.admin_up == true
	has_address(nd)
}

in_use(_, p) if {
	some c in ["port_xmit_data", "port_rcv_data", "port_xmit_packets", "port_rcv_packets"]
	p.counter_deltas[c] > 0
}

has_address(nd) if count(object.get(nd, "ipv4", [])) > 0

has_address(nd) if {
	some a in object.get(nd, "ipv6", [])
	a.scope == "global"
}

# other_port_active holds when another port of the same capture on this node is Active.
other_port_active(dev, p) if {
	some d in input.devices
	object.get(d, "capture", "") == object.get(dev, "capture", "")
	some q in d.ports
	active(q)
	not same(d, q, dev, p)
}

same(d, q, dev, p) if {
	d.name == dev.name
	q.number == p.number
}

# uncabled_spare: not in use, and the node runs on another port, so this one is most likely an
# uncabled spare.
uncabled_spare(dev, p) if {
	not in_use(dev, p)
	other_port_active(dev, p)
}
