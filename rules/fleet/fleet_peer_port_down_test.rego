package rdmadoctor.rules.fleet_peer_port_down_test

import data.rdmadoctor.rules.fleet_peer_port_down as rule

# corpus 043's Infiniscale-IV switch as one node's iblinkinfo shows it: port 8 Down/Polling.
switch_port := {
	"id": "0x0002c902004b2678/8", "node_guid": "0x0002c902004b2678", "port": 8, "node_type": "Switch",
	"node_description": "Infiniscale-IV Mellanox Technologies",
	"views": [{
		"host": "node02", "state": "Down", "physical_state": "Polling",
		"evidence": {"state": {"host": "node02", "source": "iblinkinfo", "path": "iblinkinfo", "line": 24, "text": "           2    8[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )"}},
	}],
}

# node01's port cabled to it (the link from a capture of another time), with its ibstat lines
# (a host's own lines name no host: they are the host's).
host(state, phys, peer_host) := {"host": peer_host, "ports": [{
	"device": "mlx4_0", "port": 1, "state": state, "physical_state": phys, "fabric_port": "0x0002c90300002f78/1",
	"peer": "0x0002c902004b2678/8",
	"evidence": {
		"state": {"source": "ibstat", "path": "ibstat", "line": 9, "text": sprintf("\t\tState: %s", [state])},
		"physical_state": {"source": "ibstat", "path": "ibstat", "line": 10, "text": sprintf("\t\tPhysical state: %s", [phys])},
	},
}]}

test_fires_when_both_ends_are_down if {
	fs := rule.findings with input as {"fabric": {"ports": [switch_port], "hosts": [host("Down", "Polling", "node01")]}}
	count(fs) == 1
	some f in fs
	f.nodes == ["node01"]
	f.severity == "error"
	f.message == `node01 mlx4_0 port 1 (Down/Polling) is cabled to switch 0x0002c902004b2678 "Infiniscale-IV Mellanox Technologies" port 8, which node02's capture shows Down/Polling: the link is down at both ends - the cable, a module, or a disabled switch port`
	[e.line | some e in f.evidence] == [9, 10, 24]
	[e.host | some e in f.evidence] == ["node01", "node01", "node02"]
	f.vars == {"switch_guid": "0x0002c902004b2678", "switch_port": 8}
}

test_fires_as_a_warning_when_the_hca_is_active if {
	some f in rule.findings with input as {"fabric": {"ports": [switch_port], "hosts": [host("Active", "LinkUp", "node01")]}}
	not f.severity
	contains(f.message, "it went down and came back, or flaps")
}

# the node's own capture of the switch port is not another node's view.
test_no_finding_from_the_nodes_own_capture if {
	count(rule.findings) == 0 with input as {"fabric": {"ports": [switch_port], "hosts": [host("Down", "Polling", "node02")]}}
}

test_no_finding_when_the_switch_port_is_active if {
	up := object.union(switch_port, {"views": [object.union(switch_port.views[0], {"state": "Active", "physical_state": "LinkUp"})]})
	count(rule.findings) == 0 with input as {"fabric": {"ports": [up], "hosts": [host("Active", "LinkUp", "node01")]}}
}
