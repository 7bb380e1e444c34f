# METADATA
# title: Finding constructors
# description: >-
#   Builds the finding objects the rule contract (docs/rules-contract.md) asks for: a subject, a
#   one-line message that states the proof, and the evidence lines. Rules add severity, confidence,
#   scope or vars with object.union when a finding differs from the rule's metadata.
# scope: package
package rdmadoctor.lib.finding

import data.rdmadoctor.lib.join

# evidence returns the evidence entries that obj records for the given fact fields, in field
# order; fields without evidence are skipped, so the result is never undefined.
evidence(obj, fields) := [e |
	some f in fields
	e := obj.evidence[f]
]

# port is a finding about port p of device dev; the subject also names the PCI address and the
# netdev when the snapshot links them.
port(dev, p, msg, ev) := {
	"subject": port_subject(dev, p),
	"message": msg,
	"evidence": ev,
}

# device is a finding about a whole RDMA device.
device(dev, msg, ev) := {
	"subject": device_subject(dev),
	"message": msg,
	"evidence": ev,
}

# netdev is a finding about a network interface that no RDMA port is known for.
netdev(nd, msg, ev) := {
	"subject": compact({"netdev": nd.name, "pci": object.get(nd, "pci_address", "")}),
	"message": msg,
	"evidence": ev,
}

# pci is a finding about a PCI function, named by its address (and its RDMA device when known).
pci(addr, devname, msg, ev) := {
	"subject": compact({"pci": addr, "device": devname}),
	"message": msg,
	"evidence": ev,
}

# node is a finding about the whole node.
node(msg, ev) := {
	"subject": {},
	"message": msg,
	"evidence": ev,
}

port_subject(dev, p) := object.union(
	{"device": dev.name, "port": p.number},
	compact({"pci": join.pci(dev), "netdev": join.netdev_name(dev, p)}),
)

device_subject(dev) := object.union({"device": dev.name}, compact({"pci": join.pci(dev)}))

# compact drops empty strings, so a subject never carries an unknown field.
compact(o) := {k: v | some k, v in o; v != ""}

# with adds or overrides optional finding fields (severity, confidence, scope, vars).
with_fields(f, extra) := object.union(f, extra)

# not_judged marks f as the rule's word that it could not judge f's subject, a fact it needs
# being unknown there; why says which ("its running firmware version is unknown: the capture
# gives none"). The engine lists the rule under skipped, naming the subject with why and f's
# first evidence line, never f as a diagnosis: absence is not evidence (docs/rules-contract.md).
not_judged(f, why) := object.union(f, {"unknown": why})
