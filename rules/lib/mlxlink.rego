# METADATA
# title: mlxlink reports
# description: >-
#   What an mlxlink/mstlink report says and what it is about. Its Troubleshooting Info (Status
#   Opcode, Recommendation) is mapped to the rule whose cause it names by the tables of
#   rules/data/mlxlink_status.yaml (NVIDIA "Link Diagnostic Per Port" opcodes). A report is joined
#   to an RDMA device only on positive evidence: `mlxlink -d mlx5_0`, or the PCI address of its -d
#   argument (a BDF, or an mst device that mst status names) equal to the device's; its port is -p
#   (mlxlink reads port 1 of the function without it). Its CA type comes from the mst device name
#   (mt4115_pciconf0), the joined device, or the firmware major of Tool Information.
# scope: package
package rdmadoctor.lib.mlxlink

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.join

# cause returns the table row ({rule, meaning, down}) for the report's troubleshooting info: a
# Recommendation text of mlxlink_recommendations first, else the row of its Status Opcode.
# Undefined when the report has neither, or the opcode is in no row.
cause(ml) := c if {
	rec := lower(object.get(ml, "recommendation", ""))
	rec != ""
	rows := [r | some r in data.data.mlxlink_recommendations; contains(rec, lower(r.text))]
	count(rows) > 0
	c := object.union({"down": false}, rows[0])
} else := c if {
	op := ml.status_opcode
	is_number(op)
	rows := [r | some r in data.data.mlxlink_status_opcodes; r.from <= op; op <= r.to]
	count(rows) > 0
	c := object.union({"down": false}, rows[0])
}

# names returns the cause of ml when it is evidence for rule: a reason the link is down counts
# only while mlxlink says the link is not Active.
names(ml, rule) := c if {
	c := cause(ml)
	c.rule == rule
	applies(ml, c)
}

applies(_, c) if c.down == false

applies(ml, c) if {
	c.down == true
	object.get(ml, "state", "") != ""
	ml.state != "Active"
}

# describe is the troubleshooting info in mlxlink's own words, for messages.
describe(ml) := sprintf("Status Opcode %v: %s", [ml.status_opcode, ml.recommendation]) if {
	is_number(ml.status_opcode)
	object.get(ml, "recommendation", "") != ""
} else := sprintf("Status Opcode %v", [ml.status_opcode]) if {
	is_number(ml.status_opcode)
} else := ml.recommendation

# status_evidence are the lines of the troubleshooting info and of the link state.
status_evidence(ml) := finding.evidence(ml, ["status_opcode", "recommendation", "state", "physical_state"])

# device returns the RDMA device the report is about; undefined without positive evidence or
# when several devices (two captures of one name) match.
device(ml) := ds[0] if {
	ds := [d | some d in input.devices; linked(ml, d)]
	count(ds) == 1
}

linked(ml, d) if ml.device == d.name

linked(ml, d) if {
	a := object.get(ml, "pci_address", "")
	a != ""
	join.pci(d) == a
}

# port is the port number the report is about.
port(ml) := ml.port if is_number(ml.port)

else := 1

# finding builds a finding about the report's port when its device is known, else about its PCI
# function, else about the node; vars.mlxlink_device is the -d argument as given, for fixes.
finding_for(ml, msg, ev) := object.union(f, {"vars": {"mlxlink_device": ml.device}}) if {
	f := subject_finding(ml, msg, ev)
}

subject_finding(ml, msg, ev) := f if {
	d := device(ml)
	some p in d.ports
	p.number == port(ml)
	f := finding.port(d, p, msg, ev)
} else := f if {
	a := object.get(ml, "pci_address", "")
	a != ""
	f := finding.pci(a, "", msg, ev)
} else := f if {
	# `mlxlink -d mlx5_0` names the RDMA device itself, also when no device list is in the snapshot
	rdma_name(ml.device)
	f := {"subject": {"device": ml.device, "port": port(ml)}, "message": msg, "evidence": ev}
} else := finding.node(msg, ev)

# rdma_name holds for an RDMA device name given to -d (mlx5_0), not an mst device or a PCI address.
rdma_name(s) if regex.match(`^[a-z][a-z0-9]*_[0-9]+$`, s)

# ca_type is the CA type of the adapter the report is about; undefined when nothing tells.
ca_type(ml) := t if {
	t := hca.type_of_firmware({"device_type": "", "device": ml.device})
} else := t if {
	t := hca.ca_type(device(ml))
} else := t if {
	t := hca.type_of_fw_version(object.get(ml, "firmware_version", ""))
}

# ca_type_evidence is the line that told the CA type when it came from the firmware version.
ca_type_evidence(ml) := [] if {
	hca.type_of_firmware({"device_type": "", "device": ml.device})
} else := [] if {
	hca.ca_type(device(ml))
} else := finding.evidence(ml, ["firmware_version"])

# lane_of_speed reads mlxlink's "Speed : IB-EDR" into the lane speed name; undefined for Ethernet speeds.
lane_of_speed(ml) := l if {
	s := object.get(ml, "speed", "")
	startswith(s, "IB-")
	l := upper(substring(s, 3, -1))
}

# device_vars are the finding fields that name dev's PCI address as the device mlxlink reads
# (-d accepts a BDF), for fixes written with {{mlxlink_device}}; none when the address is unknown.
device_vars(dev) := {"vars": {"mlxlink_device": a}} if {
	a := join.pci(dev)
	a != ""
} else := {}
