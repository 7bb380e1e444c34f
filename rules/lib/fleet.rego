# METADATA
# title: Fleet helpers
# description: >-
#   Helpers of the fleet rules (rules/fleet/), over the fleet document (facts.Fleet,
#   docs/fleet.schema.json): evidence lines with the node they are from, the majority value among
#   peers, and the subject of a device of a node summary. Compiled with the fleet rules only.
# scope: package
package rdmadoctor.lib.fleet

# evidence returns the evidence entries obj (a summary device, port, IPoIB netdev or the node
# summary itself) records for the given fields, in field order, each with the node's host.
evidence(node, obj, fields) := [object.union(e, {"host": node.host}) |
	some f in fields
	e := obj.evidence[f]
]

# line is one evidence entry (a facts.Evidence object) with the node's host, as a list of it;
# empty when e is null.
line(node, e) := [object.union(e, {"host": node.host})] if e != null

else := []

# not_judged marks the fleet finding f as the rule's word that it could not judge f's subject on
# f's nodes, a fact it needs being unknown there; why says which. The fleet engine lists the
# rule under the fleet report's skipped, naming the nodes and subject with why and f's first
# evidence line, never f as a diagnosis (docs/rules-contract.md; finding.not_judged for node
# rules, whose library a fleet rule cannot import: it reads a snapshot).
not_judged(f, why) := object.union(f, {"unknown": why})

# majority is the key of counts (value -> number of nodes) held by more nodes than any other
# key; undefined on a tie or an empty object. A rule that compares nodes with their peers'
# majority must say something true on a tie too (a split, or the best value held): nothing at
# all there is a false "healthy" (docs/fleet.md, "When peers split evenly").
majority(counts) := v if {
	some v, n in counts
	count([w |
		some w, m in counts
		w != v
		m >= n
	]) == 0
}

# split describes a split of peers with no majority (by: shown value -> the set of nodes that
# hold it) as "A on 2 nodes, B on 2 nodes, C on node07": the values held by the most nodes first,
# then by value.
split(by) := concat(", ", [sprintf("%s on %s", [v, on(by[v])]) |
	some [_, v] in sort([[0 - count(hs), v] | some v, hs in by])
])

# on names a set of nodes for a message: its one host, else how many they are ("12 nodes").
on(hs) := h if {
	count(hs) == 1
	some h in hs
} else := sprintf("%d nodes", [count(hs)])

# whose is on(hs) as an owner: "node07's", "12 nodes'".
whose(hs) := sprintf("%s's", [on(hs)]) if count(hs) == 1

else := sprintf("%s'", [on(hs)])

# others are the values of by (shown value -> nodes) but v, sorted and joined with " or ": what
# the peers of v's nodes run when no value is on most nodes.
others(by, v) := concat(" or ", sort([w | some w, _ in by; w != v]))

# label names a summary device for people: its RDMA device name, else its PCI address.
label(dev) := dev.name if dev.name

else := dev.pci_address

# subject is the finding subject of a summary device (and port number, when given as a number).
subject(dev) := compact({"device": object.get(dev, "name", ""), "pci": object.get(dev, "pci_address", "")})

# common_subject is the subject the summary devices devs share (the same name and PCI address
# on every node), else the empty subject: a finding over several nodes never names one node's
# adapter for all.
common_subject(devs) := s if {
	ss := {subject(dev) | some dev in devs}
	count(ss) == 1
	some s in ss
} else := {}

port_subject(dev, number) := object.union(subject(dev), {"port": number})

# compact drops empty strings, so a subject never carries an unknown field.
compact(o) := {k: v | some k, v in o; v != ""}

# nodes_word is "node" or "nodes" for n.
nodes_word(1) := "node"

nodes_word(n) := "nodes" if n != 1

# run_word is "runs" or "run" for n nodes.
run_word(1) := "runs"

run_word(n) := "run" if n != 1
