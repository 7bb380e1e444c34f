package rdmadoctor.rules.fleet_host_sees_no_sm_test

import data.rdmadoctor.rules.fleet_host_sees_no_sm as rule

# node02 answers from the Quantum master (fixtures/sminfo/master.txt, corpus 112).
master := {
	"host": "node02", "device": "mlx5_0", "port": 1, "subnet": "s", "sm_guid": "0x08c0eb0300f6fc26", "sm_lid": 4, "priority": 15,
	"state": "SMINFO_MASTER",
	"evidence": {"host": "node02", "source": "sminfo", "path": "sminfo_-C_mlx5_0_-P_1", "line": 1, "text": "sminfo: sm lid 4 sm guid 0x8c0eb0300f6fc26, activity count 5568705 priority 15 state 3 SMINFO_MASTER"},
}

# node01's ibstat of corpus 112's PF that stayed Initializing (fixtures/ibstat/pf-initializing.txt);
# a host's own lines name no host: they are the host's.
port(state, phys, subnet) := {
	"device": "mlx5_5", "port": 1, "port_guid": "0x1070fd0300c4fe5a", "state": state, "physical_state": phys, "subnet": subnet,
	"evidence": {"state": {"source": "ibstat", "path": "ibstat", "line": 9, "text": "\t\tState: Initializing"}},
}

doc(p, refusals) := {"fabric": {"sm_views": [master], "hosts": [{"host": "node01", "ports": [p], "sm_refusals": refusals}, {"host": "node02", "ports": []}]}}

test_fires_on_an_initializing_port if {
	fs := rule.findings with input as doc(port("Initializing", "LinkUp", "s"), [])
	count(fs) == 1
	some f in fs
	f.nodes == ["node01"]
	f.subject == {"device": "mlx5_5", "port": 1}
	f.message == "node01 mlx5_5 port 1 is Initializing/LinkUp: no SM has configured it, while node02 in its subnet reach the master SM 0x08c0eb0300f6fc26 (lid 4, priority 15; seen by node02)"
	[e.host | some e in f.evidence] == ["node01", "node02"]
}

# what sminfo prints when no SM answers, as the MLNX_OFED user manual quotes it ("If an SM is not
# running, sminfo prints: sminfo: iberror: query failed").
no_answer := {"host": "node01", "source": "sminfo", "path": "sminfo", "line": 1, "text": "sminfo: iberror: query failed"}

test_fires_on_no_answer if {
	some f in rule.findings with input as doc(port("Active", "LinkUp", "s"), [no_answer])
	f.message == "node01 mlx5_5 port 1 got no answer from sminfo: \"sminfo: iberror: query failed\", while node02 in its subnet reach the master SM 0x08c0eb0300f6fc26 (lid 4, priority 15; seen by node02)"
}

# sminfo that could not open the port asked nothing (a real capture: "ibwarn: [55188]
# mad_rpc_open_port: can't open UMAD port ((null):0)" then this line).
test_no_finding_when_sminfo_could_not_run if {
	cannot := object.union(no_answer, {"line": 2, "text": "sminfo: iberror: failed: Failed to open '(null)' port '0'"})
	count(rule.findings) == 0 with input as doc(port("Active", "LinkUp", "s"), [cannot])
}

test_no_finding_outside_the_subnet if {
	count(rule.findings) == 0 with input as doc(port("Initializing", "LinkUp", ""), [])
	count(rule.findings) == 0 with input as doc(port("Initializing", "LinkUp", "other"), [])
}

test_no_finding_for_an_active_port if {
	count(rule.findings) == 0 with input as doc(port("Active", "LinkUp", "s"), [])
}
