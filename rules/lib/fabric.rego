# METADATA
# title: Fabric nodes and ports
# description: >-
#   Finding constructors for fabric nodes that are none of this host's RDMA devices (a switch,
#   another host's HCA) as fabric tools saw them: ibswinfo, ibdiagnet2, iblinkinfo, ibqueryerrors,
#   perfquery of a remote LID. The subject names the node by its GUID (node_guid, the identity)
#   and node description (node_description), and the port by its number. A fabric record joins a
#   local device only by its GUID (local_devices): never by a name or a LID alone.
# scope: package
package rdmadoctor.lib.fabric

import data.rdmadoctor.lib.finding

# node_subject names a fabric node; unknown fields are left out.
node_subject(guid, desc) := finding.compact({"node_guid": guid, "node_description": desc})

# port_subject names port n of a fabric node.
port_subject(guid, desc, n) := object.union(node_subject(guid, desc), {"port": n})

# node is a finding about a whole fabric node (a switch chassis, a node's firmware).
node(guid, desc, msg, ev) := {
	"subject": node_subject(guid, desc),
	"message": msg,
	"evidence": ev,
}

# port is a finding about port n of a fabric node.
port(guid, desc, n, msg, ev) := {
	"subject": port_subject(guid, desc, n),
	"message": msg,
	"evidence": ev,
}

# name renders a fabric node for a message: "0xfc6a1c030091cf00 \"Quantum-2 Mellanox
# Technologies\"", or whichever of the two is known.
name(guid, desc) := sprintf("%s %q", [guid, desc]) if {
	guid != ""
	desc != ""
} else := guid if {
	guid != ""
} else := sprintf("%q", [desc])

# local_devices are the RDMA devices of this host whose node GUID is guid: the one positive
# join between a fabric record and a local device (empty when none has it).
local_devices(guid) := set() if {
	guid == ""
} else := {dev.name |
	some dev in input.devices
	object.get(dev, "node_guid", "") == guid
}
